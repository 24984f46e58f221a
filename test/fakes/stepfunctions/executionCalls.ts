/**
 * StartExecution, DescribeExecution and ListExecutions over the state machines the fake was given,
 * with the service's rules: an execution name is taken once (a second start with the same input
 * while it runs is the same start; anything else is ExecutionAlreadyExists). The fake runs nothing
 * itself: an execution stays RUNNING until `run` settles it, or until the test calls `finish`.
 */
import { randomUUID } from 'node:crypto';
import { arnName, type Body, checkName, optional, required, SfnFault } from './faults.js';

export type ExecutionStatus = 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'TIMED_OUT' | 'ABORTED';

export interface FakeExecution {
  executionArn: string;
  stateMachineArn: string;
  name: string;
  input: string;
  status: ExecutionStatus;
  startDate: number;
}

/** Runs a started execution (e.g. through the local state-machine runner); resolves with its end. */
export type RunExecution = (execution: FakeExecution) => Promise<Exclude<ExecutionStatus, 'RUNNING'>>;

const PAGE = 100;

export class ExecutionCalls {
  readonly executions = new Map<string, FakeExecution>();

  constructor(
    private readonly stateMachineArns: ReadonlySet<string>,
    private readonly run?: RunExecution,
  ) {}

  startExecution(body: Body): unknown {
    const stateMachineArn = this.stateMachine(body);
    const name = checkName(optional(body, 'name') ?? randomUUID());
    const input = optional(body, 'input') ?? '{}';
    try {
      JSON.parse(input);
    } catch {
      throw new SfnFault('InvalidExecutionInput', 'Invalid Execution Input: the input is not JSON');
    }
    const executionArn = `${stateMachineArn.replace(':stateMachine:', ':execution:')}:${name}`;
    const held = this.executions.get(executionArn);
    if (held) {
      if (held.status === 'RUNNING' && held.input === input) return started(held);
      throw new SfnFault('ExecutionAlreadyExists', `Execution Already Exists: '${executionArn}'`);
    }
    const execution: FakeExecution = {
      executionArn,
      stateMachineArn,
      name,
      input,
      status: 'RUNNING',
      startDate: Date.now(),
    };
    this.executions.set(executionArn, execution);
    this.run?.(execution).then(
      (status) => this.finish(executionArn, status),
      () => this.finish(executionArn, 'FAILED'),
    );
    return started(execution);
  }

  describeExecution(body: Body): unknown {
    const executionArn = required(body, 'executionArn');
    arnName(executionArn, 'execution');
    const execution = this.executions.get(executionArn);
    if (!execution)
      throw new SfnFault('ExecutionDoesNotExist', `Execution Does Not Exist: '${executionArn}'`);
    return { ...listed(execution), input: execution.input };
  }

  listExecutions(body: Body): unknown {
    const stateMachineArn = this.stateMachine(body);
    const status = optional(body, 'statusFilter');
    const matching = [...this.executions.values()].filter(
      (e) => e.stateMachineArn === stateMachineArn && (!status || e.status === status),
    );
    const from = this.offset(optional(body, 'nextToken'));
    const limit = typeof body.maxResults === 'number' && body.maxResults > 0 ? body.maxResults : PAGE;
    const page = matching.slice(from, from + limit);
    const next = from + page.length < matching.length ? { nextToken: `page-${from + page.length}` } : {};
    return { executions: page.map(listed), ...next };
  }

  /** Ends an execution the way its state machine would have. */
  finish(executionArn: string, status: Exclude<ExecutionStatus, 'RUNNING'>): void {
    const execution = this.executions.get(executionArn);
    if (execution) execution.status = status;
  }

  private stateMachine(body: Body): string {
    const arn = required(body, 'stateMachineArn');
    arnName(arn, 'stateMachine');
    if (!this.stateMachineArns.has(arn)) {
      throw new SfnFault('StateMachineDoesNotExist', `State Machine Does Not Exist: '${arn}'`);
    }
    return arn;
  }

  private offset(token: string | undefined): number {
    if (token === undefined) return 0;
    const match = /^page-(\d+)$/.exec(token);
    if (!match)
      throw new SfnFault('InvalidToken', 'Invalid Token: the nextToken is not one this listing gave');
    return Number(match[1]);
  }
}

function started(e: FakeExecution) {
  return { executionArn: e.executionArn, startDate: e.startDate / 1000 };
}

function listed(e: FakeExecution) {
  return {
    executionArn: e.executionArn,
    stateMachineArn: e.stateMachineArn,
    name: e.name,
    status: e.status,
    startDate: e.startDate / 1000,
  };
}
