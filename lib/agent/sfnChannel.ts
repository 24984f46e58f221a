/**
 * The TaskChannel over the AWS SDK: credentials from the standard provider chain (IAM Roles
 * Anywhere through a credential_process profile, AWS_PROFILE, the environment, an instance role).
 * The SDK retries throttling and network errors itself; what it gives up on comes back to the
 * agent, which keeps the task until it is reported or gone.
 */
import {
  GetActivityTaskCommand,
  SendTaskFailureCommand,
  SendTaskHeartbeatCommand,
  SendTaskSuccessCommand,
  SFNClient,
} from '@aws-sdk/client-sfn';
import { type ActivityTask, type TaskChannel, TaskGoneError } from './channel.js';

// What Step Functions answers for a token it will no longer accept.
const GONE = new Set(['TaskTimedOut', 'TaskDoesNotExist', 'InvalidToken']);

export function sfnChannel(client: SFNClient = new SFNClient({})): TaskChannel {
  const gone = async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (error) {
      if (GONE.has((error as Error).name)) throw new TaskGoneError((error as Error).message);
      throw error;
    }
  };
  return {
    async getActivityTask(activityArn, workerName, signal): Promise<ActivityTask | undefined> {
      const out = await client.send(new GetActivityTaskCommand({ activityArn, workerName }), {
        abortSignal: signal,
      });
      // An empty token means the long poll ended without a task.
      return out.taskToken ? { taskToken: out.taskToken, input: out.input ?? '{}' } : undefined;
    },
    sendTaskSuccess: (taskToken, output) =>
      gone(() => client.send(new SendTaskSuccessCommand({ taskToken, output }))).then(() => undefined),
    sendTaskFailure: (taskToken, error, cause) =>
      gone(() => client.send(new SendTaskFailureCommand({ taskToken, error, cause }))).then(() => undefined),
    sendTaskHeartbeat: (taskToken) =>
      gone(() => client.send(new SendTaskHeartbeatCommand({ taskToken }))).then(() => undefined),
  };
}
