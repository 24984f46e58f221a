/**
 * Step Functions over HTTP on 127.0.0.1 (the AWS JSON 1.0 protocol the SDK speaks: POST /,
 * `X-Amz-Target: AWSStepFunctions.<Operation>`): the four activity calls, served from in-process
 * activities, and starting, describing and listing executions. So the agent's real SFNClient
 * channel (lib/agent/sfnChannel.ts) and the plan starter's (lib/workflow/sfnExecutions.ts) can be
 * tested end to end, including each error the service answers, by the name the SDK throws.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LocalActivities } from '../../../lib/local/activities.js';
import { ActivityCalls } from './activityCalls.js';
import { ExecutionCalls, type FakeExecution, type RunExecution } from './executionCalls.js';
import { type Body, SfnFault } from './faults.js';

export type { FakeExecution, RunExecution };

export interface FakeStepFunctionsOptions {
  activities: LocalActivities;
  /** The activities that exist; GetActivityTask on any other is ActivityDoesNotExist. */
  activityArns?: readonly string[];
  /** The state machines that exist; executions of any other are StateMachineDoesNotExist. */
  stateMachineArns?: readonly string[];
  /** Runs each started execution; without it executions stay RUNNING until `finish`. */
  runExecution?: RunExecution;
}

export class FakeStepFunctions {
  private constructor(
    private readonly server: Server,
    readonly endpoint: string,
    private readonly calls: ExecutionCalls,
  ) {}

  static async start(options: FakeStepFunctionsOptions): Promise<FakeStepFunctions> {
    const activityCalls = new ActivityCalls(options.activities, new Set(options.activityArns));
    const executionCalls = new ExecutionCalls(new Set(options.stateMachineArns), options.runExecution);
    const operations: Record<string, (body: Body) => unknown> = {
      DescribeActivity: (b) => activityCalls.describeActivity(b),
      GetActivityTask: (b) => activityCalls.getActivityTask(b),
      SendTaskSuccess: (b) => activityCalls.sendTaskSuccess(b),
      SendTaskFailure: (b) => activityCalls.sendTaskFailure(b),
      SendTaskHeartbeat: (b) => activityCalls.sendTaskHeartbeat(b),
      StartExecution: (b) => executionCalls.startExecution(b),
      DescribeExecution: (b) => executionCalls.describeExecution(b),
      ListExecutions: (b) => executionCalls.listExecutions(b),
    };
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const reply = (status: number, doc: unknown) => {
          res.writeHead(status, { 'content-type': 'application/x-amz-json-1.0' });
          res.end(JSON.stringify(doc));
        };
        try {
          const target = String(req.headers['x-amz-target'] ?? '');
          const operation = Object.hasOwn(operations, target.replace('AWSStepFunctions.', ''))
            ? operations[target.replace('AWSStepFunctions.', '')]
            : undefined;
          if (!target.startsWith('AWSStepFunctions.') || !operation) {
            throw new SfnFault(
              'UnknownOperationException',
              `operation ${target || '(none)'} is not served here`,
            );
          }
          reply(200, await operation(parseBody(Buffer.concat(chunks).toString('utf8'))));
        } catch (error) {
          const fault = error instanceof SfnFault ? error : undefined;
          // Anything else is the fake's own failure: the service's 500, which the SDK does not name.
          reply(fault?.status ?? 500, {
            __type: `com.amazonaws.swf.base.model#${fault?.type ?? 'InternalFailure'}`,
            message: (error as Error).message,
          });
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return new FakeStepFunctions(server, `http://127.0.0.1:${port}`, executionCalls);
  }

  /** What an SDK client needs to talk to the fake (`new SFNClient(fake.clientConfig())`): no retries. */
  clientConfig() {
    return {
      region: 'us-east-1',
      endpoint: this.endpoint,
      credentials: { accessKeyId: 'AKIDLOCAL', secretAccessKey: 'local' },
      maxAttempts: 1,
    };
  }

  /** Every execution started, by ARN. */
  get executions(): ReadonlyMap<string, FakeExecution> {
    return this.calls.executions;
  }

  /** Ends a RUNNING execution with `status` (no runner given, or to stop one). */
  finish(executionArn: string, status: Exclude<FakeExecution['status'], 'RUNNING'>): void {
    this.calls.finish(executionArn, status);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The request's JSON object; anything else is SerializationException, as the service answers. */
function parseBody(text: string): Body {
  let body: unknown;
  try {
    body = JSON.parse(text || '{}');
  } catch {
    throw new SfnFault('SerializationException', 'the request body is not JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new SfnFault('SerializationException', 'the request body is not a JSON object');
  }
  return body as Body;
}
