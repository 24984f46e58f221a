/**
 * The four activity calls an agent makes, over in-process activities (lib/local/activities.ts),
 * refused the way Step Functions refuses them: a malformed ARN is InvalidArn, one naming no
 * activity ActivityDoesNotExist; a token the fake never issued is InvalidToken (not one of its
 * form) or TaskDoesNotExist, one it issued but the task timed out or was answered TaskTimedOut.
 */
import { TaskGoneError } from '../../../lib/agent/channel.js';
import type { LocalActivities } from '../../../lib/local/activities.js';
import { arnName, type Body, required, SfnFault } from './faults.js';

const TOKEN = /^local-task-\d+$/;

export class ActivityCalls {
  private readonly issued = new Set<string>();

  constructor(
    private readonly activities: LocalActivities,
    private readonly activityArns: ReadonlySet<string>,
  ) {}

  describeActivity(body: Body): unknown {
    const arn = required(body, 'activityArn');
    const name = arnName(arn, 'activity');
    if (!this.activityArns.has(arn))
      throw new SfnFault('ActivityDoesNotExist', `Activity Does Not Exist: '${arn}'`);
    return { activityArn: arn, name, creationDate: 0 };
  }

  async getActivityTask(body: Body): Promise<unknown> {
    const arn = required(body, 'activityArn');
    arnName(arn, 'activity');
    if (!this.activityArns.has(arn))
      throw new SfnFault('ActivityDoesNotExist', `Activity Does Not Exist: '${arn}'`);
    const task = await this.activities.getActivityTask(arn, String(body.workerName ?? ''));
    if (!task) return {};
    this.issued.add(task.taskToken);
    return { taskToken: task.taskToken, input: task.input };
  }

  async sendTaskSuccess(body: Body): Promise<unknown> {
    const token = this.token(body);
    const output = required(body, 'output');
    try {
      JSON.parse(output);
    } catch {
      throw new SfnFault('InvalidOutput', 'Invalid Output: the output is not JSON');
    }
    await this.answer(() => this.activities.sendTaskSuccess(token, output));
    return {};
  }

  async sendTaskFailure(body: Body): Promise<unknown> {
    const token = this.token(body);
    await this.answer(() =>
      this.activities.sendTaskFailure(token, String(body.error ?? ''), String(body.cause ?? '')),
    );
    return {};
  }

  async sendTaskHeartbeat(body: Body): Promise<unknown> {
    const token = this.token(body);
    await this.answer(() => this.activities.sendTaskHeartbeat(token));
    return {};
  }

  private token(body: Body): string {
    const token = required(body, 'taskToken');
    if (!TOKEN.test(token))
      throw new SfnFault('InvalidToken', 'Invalid Token: the token is not one Step Functions issued');
    if (!this.issued.has(token)) throw new SfnFault('TaskDoesNotExist', `Task Does Not Exist: ${token}`);
    return token;
  }

  private async answer(call: () => Promise<void>): Promise<void> {
    try {
      await call();
    } catch (error) {
      if (error instanceof TaskGoneError) throw new SfnFault('TaskTimedOut', error.message);
      throw error;
    }
  }
}
