/**
 * The four Step Functions activity calls over HTTP on 127.0.0.1 (the AWS JSON 1.0 protocol the SDK
 * speaks: POST /, `X-Amz-Target: AWSStepFunctions.<Operation>`), served from in-process activities.
 * So the agent's real SFNClient channel (lib/agent/sfnChannel.ts) can be tested end to end,
 * including how a refused token comes back (`TaskTimedOut`).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TaskGoneError } from '../../../agent/channel.js';
import type { LocalActivities } from '../../activities.js';

type Body = Record<string, string | undefined>;

export class FakeStepFunctions {
  private constructor(
    private readonly server: Server,
    readonly endpoint: string,
  ) {}

  static async start(activities: LocalActivities): Promise<FakeStepFunctions> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const operation = String(req.headers['x-amz-target'] ?? '').replace('AWSStepFunctions.', '');
        const reply = (status: number, doc: unknown) => {
          res.writeHead(status, { 'content-type': 'application/x-amz-json-1.0' });
          res.end(JSON.stringify(doc));
        };
        try {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Body;
          reply(200, await call(activities, operation, body));
        } catch (error) {
          const type = error instanceof TaskGoneError ? 'TaskTimedOut' : 'InvalidArn';
          reply(400, { __type: `com.amazonaws.swf.base.model#${type}`, message: (error as Error).message });
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return new FakeStepFunctions(server, `http://127.0.0.1:${port}`);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

async function call(activities: LocalActivities, operation: string, b: Body): Promise<unknown> {
  switch (operation) {
    case 'GetActivityTask': {
      const task = await activities.getActivityTask(String(b.activityArn), String(b.workerName ?? ''));
      return task ? { taskToken: task.taskToken, input: task.input } : {};
    }
    case 'SendTaskSuccess':
      await activities.sendTaskSuccess(String(b.taskToken), String(b.output));
      return {};
    case 'SendTaskFailure':
      await activities.sendTaskFailure(String(b.taskToken), String(b.error ?? ''), String(b.cause ?? ''));
      return {};
    case 'SendTaskHeartbeat':
      await activities.sendTaskHeartbeat(String(b.taskToken));
      return {};
    default:
      throw new Error(`operation ${operation} is not served here`);
  }
}
