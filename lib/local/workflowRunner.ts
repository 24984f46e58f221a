/**
 * Runs the migration state machine locally: the REAL definition, the one the build emits from the
 * CDK stack (workflowDefinition.ts) or read from a synthesized template, executed by
 * aws-local-stepfunctions.
 * Lambda Tasks are bound to the dispatcher the workflow-steps Lambda runs; activity Tasks (the
 * on-premises steps) are scheduled on in-process activities (activities.ts) and run by the agent's
 * own code (lib/agent) through the same calls it makes against AWS: by default one inline agent
 * polls once per task, in the execution's own async context (the simulation's clock relies on
 * that); given `activities`, the caller's agents poll them (the fault tests: several agents, one
 * killed or partitioned). Waits and retry intervals can be zeroed so a migration runs in milliseconds.
 */
import {
  type ExecutionError,
  type RunOptions,
  StateMachine,
  type StateMachineDefinition,
} from 'aws-local-stepfunctions';
import { Agent } from '../agent/agent.js';
import { dispatchCloudStep } from '../workflow/cloudSteps.js';
import type { StepName } from '../workflow/dispatch.js';
import type { StepDeps } from '../workflow/ports.js';
import type { WorkflowState } from '../workflow/state.js';
import type { StepRequest } from '../workflow/stepRequest.js';
import { LocalActivities } from './activities.js';
import { workflowDefinition } from './workflowDefinition.js';

export interface WorkflowRunOptions {
  deps: StepDeps;
  input: unknown;
  /** The execution's start time (`$$.Execution.StartTime`). Default: now by the deps' clock. */
  startedAt?: Date;
  executionName?: string;
  /** Zero every Wait and retry interval (tests, simulation). Default true. */
  instant?: boolean;
  /** Called before each step with its request: e.g. move a manual clock on by the poll interval. */
  beforeStep?: (request: StepRequest<StepName>) => void | Promise<void>;
  /**
   * Called after each step with its state's name and, when it threw, the error (before the state
   * machine retries or catches it): e.g. let simulated time pass for the retry interval zeroed here.
   */
  afterStep?: (step: {
    state: string;
    request: StepRequest<StepName>;
    error?: unknown;
  }) => void | Promise<void>;
  /** A template `cdk synth` wrote, whose state machine to run instead of the emitted definition. */
  templatePath?: string;
  /** The definition to run (e.g. one the caller loaded) instead of loading one. */
  definition?: StateMachineDefinition;
  /**
   * Where the on-premises tasks go, for agents the caller runs; by default an inline agent over
   * `deps` takes each one (see the file comment).
   */
  activities?: LocalActivities;
}

export interface WorkflowRun {
  status: 'SUCCEEDED' | 'FAILED';
  /** The final state document (on success). */
  output?: WorkflowState & Record<string, unknown>;
  /** The execution's error and cause (on failure), as Step Functions would report them. */
  error?: string;
  cause?: string;
  /** Task states in the order they were invoked, retries included. */
  steps: string[];
}

/** Runs one execution to its end. */
export async function runWorkflow(options: WorkflowRunOptions): Promise<WorkflowRun> {
  const asl = options.definition ?? workflowDefinition(options.templatePath);
  const startedAt = options.startedAt ?? new Date(options.deps.clock.now());
  const steps: string[] = [];
  const onPremises = options.activities ? external(options.activities) : inlineAgent(options.deps);
  const handlers: Record<string, (input: unknown) => Promise<unknown>> = {};
  for (const [name, state] of Object.entries(asl.States)) {
    if (state.Type !== 'Task') continue;
    const resource = String((state as { Resource?: string }).Resource ?? '');
    const heartbeatSeconds = (state as { HeartbeatSeconds?: number }).HeartbeatSeconds;
    const run = resource.includes(':activity:')
      ? (request: StepRequest<StepName>) => onPremises(resource, request, heartbeatSeconds)
      : (request: StepRequest<StepName>) => dispatchCloudStep(request, options.deps);
    handlers[name] = async (input) => {
      steps.push(name);
      const request = withStartTime(input as StepRequest<StepName>, startedAt);
      await options.beforeStep?.(request);
      let result: unknown;
      try {
        result = await run(request);
      } catch (error) {
        await options.afterStep?.({ state: name, request, error });
        throw error;
      }
      await options.afterStep?.({ state: name, request });
      // Through JSON, as a Lambda's answer travels: no undefined, no Date, no class instances.
      return JSON.parse(JSON.stringify(result ?? null));
    };
  }
  const name = options.executionName ?? 'local';
  const run = new StateMachine(asl, { validationOptions: { checkPaths: true, checkArn: true } }).run(
    options.input as never,
    {
      overrides: {
        taskResourceLocalHandlers: handlers as never,
        ...(options.instant === false ? {} : zeroWaits(asl)),
      },
      context: {
        Execution: {
          Id: `arn:aws:states:us-east-1:123456789012:execution:local:${name}`,
          Name: name,
          StartTime: startedAt.toISOString(),
          Input: options.input as never,
        },
      },
    } satisfies RunOptions,
  );
  try {
    const output = (await run.result) as WorkflowRun['output'];
    return { status: 'SUCCEEDED', output, steps };
  } catch (error) {
    const cause = (error as ExecutionError).cause as Error | undefined;
    if (!cause) throw error;
    return { status: 'FAILED', error: cause.name, cause: cause.message, steps };
  }
}

type OnPremises = (
  activityArn: string,
  request: StepRequest<StepName>,
  heartbeatSeconds?: number,
) => Promise<unknown>;

/** The caller's agents poll `activities`. */
function external(activities: LocalActivities): OnPremises {
  return (arn, request, heartbeatSeconds) => activities.schedule(arn, request, { heartbeatSeconds });
}

/**
 * One in-process agent over the execution's drivers: each task is scheduled, then the agent polls
 * once (getting that very task) and runs it to its report, all in the calling execution's context.
 */
function inlineAgent(deps: StepDeps): OnPremises {
  const activities = new LocalActivities({ now: () => deps.clock.now(), sleep: async () => {} });
  const agents = new Map<string, Agent>();
  return async (arn, request, heartbeatSeconds) => {
    let agent = agents.get(arn);
    if (!agent) {
      // Its activities never time a task out by themselves: nothing to fence against by the clock.
      agent = new Agent({
        channel: activities,
        activityArn: arn,
        workerName: 'local-agent',
        deps,
        fenceByClock: false,
      });
      agents.set(arn, agent);
    }
    const result = activities.schedule(arn, request, { heartbeatSeconds });
    await agent.pollOnce();
    return result;
  };
}

/**
 * aws-local-stepfunctions sets `$$.Execution.StartTime` to the wall clock whatever context it is
 * given; the steps must see the execution's own (possibly simulated) start, as on AWS.
 */
function withStartTime(request: StepRequest<StepName>, startedAt: Date): StepRequest<StepName> {
  if (!request?.state) return request;
  return { ...request, state: { ...request.state, execution_started_at: startedAt.toISOString() } };
}

function zeroWaits(definition: StateMachineDefinition): NonNullable<RunOptions['overrides']> {
  const states = Object.entries(definition.States);
  return {
    waitTimeOverrides: Object.fromEntries(states.filter(([, s]) => s.Type === 'Wait').map(([n]) => [n, 0])),
    retryIntervalOverrides: Object.fromEntries(states.filter(([, s]) => 'Retry' in s).map(([n]) => [n, 0])),
  };
}
