/**
 * The plan starter's `Executions` port for the simulation: each start runs the real state machine
 * (lib/local/workflowRunner.ts over the synthesized definition) as a task on the simulated clock.
 * Waits the runner zeroes still take simulated time: before each poll the execution waits its poll
 * interval, after a failed step the retry interval the definition gives (RetryClock), and the
 * simulated drain waits for its evictions. `start` returns once the new execution first blocks (or
 * ends), so executions never run side by side (see simClock.ts).
 */
import type { StateMachineDefinition } from 'aws-local-stepfunctions';
import type { WorkflowRun } from '../local/workflowRunner.js';
import type { MigrationInput } from '../model/migration.js';
import type { StepDeps } from '../workflow/ports.js';
import type { Executions } from '../workflow/starter.js';
import { stream } from './random.js';
import { RetryClock } from './retryDelays.js';
import type { SimClock } from './simClock.js';

export interface ExecutionRecord {
  name: string;
  input: MigrationInput;
  startedAt: number;
  endedAt?: number;
  run?: WorkflowRun;
  /** A crash of the runner itself (not a failed execution). */
  error?: unknown;
}

type RunWorkflow = typeof import('../local/workflowRunner.js').runWorkflow;

export class SimExecutions implements Executions {
  readonly records = new Map<string, ExecutionRecord>();
  private live = 0;

  constructor(
    private readonly clock: SimClock,
    private readonly deps: StepDeps,
    private readonly definition: StateMachineDefinition,
    private readonly runWorkflow: RunWorkflow,
    private readonly seed: number,
  ) {}

  async start(name: string, input: string): Promise<'started' | 'exists'> {
    if (this.records.has(name)) return 'exists';
    const record: ExecutionRecord = { name, input: JSON.parse(input), startedAt: this.clock.now() };
    this.records.set(name, record);
    this.live++;
    void this.clock.spawn(async () => {
      try {
        record.run = await this.execute(record);
      } catch (error) {
        record.error = error;
      } finally {
        record.endedAt = this.clock.now();
        this.live--;
      }
    });
    await this.clock.settle();
    return 'started';
  }

  async countRunning(limit: number): Promise<number> {
    return Math.min(limit, this.live);
  }

  get running(): number {
    return this.live;
  }

  private execute(record: ExecutionRecord): Promise<WorkflowRun> {
    const retries = new RetryClock(this.definition, stream(this.seed, `retry/${record.name}`));
    const clock = this.clock;
    return this.runWorkflow({
      deps: this.deps,
      input: record.input,
      executionName: record.name,
      startedAt: new Date(record.startedAt),
      definition: this.definition,
      instant: true,
      beforeStep: async (request) => {
        // The Wait state before each poll, which the runner skips.
        if (request.step === 'pollMigration') {
          await clock.sleep((request.state.live?.poll_interval_seconds ?? 0) * 1000);
        }
      },
      afterStep: async ({ state, error }) => {
        const delay = retries.afterStep(state, error);
        if (delay !== undefined) await clock.sleep(delay);
      },
    });
  }
}
