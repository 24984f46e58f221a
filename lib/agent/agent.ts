/**
 * `placid agent`'s worker: polls the workflow's activity for on-premises steps, runs each through
 * the step cores and the drivers it was given, heartbeats while it runs, and reports the result or
 * the error (its class name is what the state machine's Retry and Catch match on). Outbound calls
 * only. Several agents may poll the same activity: Step Functions hands each task to one of them.
 *
 * Loss and restarts: an agent that dies or loses the network stops heartbeating; Step Functions
 * fails the task with States.HeartbeatTimeout and retries it, and whichever agent polls next gets
 * it with the same execution state. The step cores are idempotent (drain and undrain converge,
 * liveMigrate adopts a migration an earlier attempt started, rollback re-reads what is left), so
 * the retry continues where the lost attempt stopped, or rolls back. An agent that finishes a step
 * after its task was given away (TaskGoneError) drops the result.
 *
 * Self-fencing (lib/workflow/fence.ts): a task whose heartbeat is refused, or which its own clock
 * says has timed out (no heartbeat confirmed for the heartbeat timeout less a margin, the task's
 * timeout, the migration's leases), is fenced at once: its step starts no further driver call.
 */
import { type Clock, systemClock } from '../model/clock.js';
import { dispatchAgentStep } from '../workflow/agentSteps.js';
import type { StepName } from '../workflow/dispatch.js';
import { fencedDeps, TaskFence } from '../workflow/fence.js';
import type { AgentStepDeps } from '../workflow/ports.js';
import { agentTaskTimeoutSeconds } from '../workflow/settings.js';
import type { StepRequest } from '../workflow/stepRequest.js';
import {
  type ActivityTask,
  MAX_CAUSE_CHARS,
  MAX_ERROR_CHARS,
  type TaskChannel,
  TaskGoneError,
} from './channel.js';

export interface AgentOptions {
  channel: TaskChannel;
  activityArn: string;
  /** Shows in the execution history (ActivityStarted): host name and process id by default. */
  workerName: string;
  deps: AgentStepDeps;
  /** Tasks run at once, one long poll each. Default 4. */
  concurrency?: number;
  /** Between heartbeats of a running task; well under the state machine's HeartbeatSeconds (60). */
  heartbeatIntervalMs?: number;
  /** The state machine's HeartbeatSeconds for agent steps. Default 60 s. */
  heartbeatTimeoutMs?: number;
  /** How much sooner than Step Functions the agent fences a task, for clock skew. Default 15 s. */
  fenceMarginMs?: number;
  /** Between attempts to report a result while AWS cannot be reached. */
  reportRetryMs?: number;
  /** Give up reporting after this long: the task has timed out on AWS by then. Default 15 min. */
  reportGiveUpMs?: number;
  /** After a failed poll (no network, throttled). */
  pollRetryMs?: number;
  /** Times the retry waits, the give-up deadline and the fence; by default the steps' clock. */
  clock?: Clock;
  /**
   * Fence each task by the agent's own clock too (heartbeat and task timeouts, leases). Default
   * true; off only for a runner whose activities never time a task out by themselves.
   */
  fenceByClock?: boolean;
  log?: (event: AgentEvent) => void;
}

export type AgentEvent =
  | { event: 'task-started' | 'task-succeeded'; step: string; migration_id?: string }
  | { event: 'task-failed'; step: string; migration_id?: string; error: string }
  | { event: 'task-dropped' | 'task-fenced'; step: string; migration_id?: string; reason: string }
  | { event: 'report-retry' | 'heartbeat-error' | 'poll-error'; error: string }
  | { event: 'stopping'; mode: 'drain' | 'abandon'; running: number };

interface Running {
  step: string;
  migrationId?: string;
  /** The task was given away (heartbeat refused) or the agent is abandoning it: never report. */
  dropped?: string;
  fence?: TaskFence;
}

export class Agent {
  private readonly running = new Set<Running>();
  private readonly polls = new AbortController();
  private stopping: 'drain' | 'abandon' | undefined;
  private readonly clock: Clock;

  constructor(private readonly options: AgentOptions) {
    this.clock = options.clock ?? options.deps.clock ?? systemClock;
  }

  /** Polls with `concurrency` loops until stop() or abandon(); resolves when they have ended. */
  async run(): Promise<void> {
    const loops = Array.from({ length: this.options.concurrency ?? 4 }, () => this.pollLoop());
    await Promise.all(loops);
  }

  /** One long poll and, if a task came, its run to the end. True when a task ran. */
  async pollOnce(): Promise<boolean> {
    const { channel, activityArn, workerName } = this.options;
    const task = await channel.getActivityTask(activityArn, workerName, this.polls.signal);
    if (!task) return false;
    await this.runTask(task);
    return true;
  }

  /** Takes no new task; running ones finish and report (SIGTERM). */
  stop(): void {
    this.halt('drain');
  }

  /**
   * Takes no new task and drops the running ones: no more heartbeats, no report, so Step Functions
   * retries them on another agent after the heartbeat timeout (a second SIGTERM, or a kill).
   */
  abandon(): void {
    this.halt('abandon');
    for (const task of this.running) {
      task.dropped ??= 'the agent is shutting down';
      task.fence?.close('the agent is shutting down');
    }
  }

  /** The migrations whose steps run here now: the cleanup leaves their marks alone. */
  get runningMigrations(): ReadonlySet<string> {
    return new Set([...this.running].flatMap((r) => (r.migrationId ? [r.migrationId] : [])));
  }

  /** Steps in progress. */
  get busy(): number {
    return this.running.size;
  }

  private halt(mode: 'drain' | 'abandon'): void {
    if (this.stopping === 'abandon') return;
    this.stopping = mode;
    this.log({ event: 'stopping', mode, running: this.running.size });
    this.polls.abort();
  }

  private async pollLoop(): Promise<void> {
    while (!this.stopping) {
      try {
        await this.pollOnce();
      } catch (error) {
        if (this.stopping) break;
        this.log({ event: 'poll-error', error: describe(error) });
        await this.clock.sleep(this.options.pollRetryMs ?? 5_000, this.polls.signal);
      }
    }
  }

  /** Runs one task: heartbeats while the step runs, then reports its result or error. */
  async runTask(task: ActivityTask): Promise<void> {
    const request = parseRequest(task.input);
    const running: Running = {
      step: String(request.step ?? 'unknown'),
      migrationId: request.state?.migration?.migration_id,
    };
    const ids = { step: running.step, migration_id: running.migrationId };
    this.running.add(running);
    const fence = this.fenceFor(request, running, ids);
    running.fence = fence;
    if (this.stopping === 'abandon') fence.close('the agent is shutting down');
    this.log({ event: 'task-started', ...ids });
    const beat = setInterval(
      () => this.heartbeat(task, running, fence),
      this.options.heartbeatIntervalMs ?? 20_000,
    );
    beat.unref();
    let outcome: { output: string } | { error: string; cause: string };
    try {
      const result = await dispatchAgentStep(request, fencedDeps(this.options.deps, fence));
      outcome = { output: JSON.stringify(result ?? null) };
    } catch (error) {
      const e = error as Error;
      outcome = {
        error: String(e?.name ?? 'Error').slice(0, MAX_ERROR_CHARS),
        cause: String(e?.message ?? e).slice(0, MAX_CAUSE_CHARS),
      };
    } finally {
      clearInterval(beat);
    }
    try {
      await this.report(task, running, outcome);
      if (running.dropped) this.log({ event: 'task-dropped', ...ids, reason: running.dropped });
      else if ('output' in outcome) this.log({ event: 'task-succeeded', ...ids });
      else this.log({ event: 'task-failed', ...ids, error: outcome.error });
    } finally {
      this.running.delete(running);
    }
  }

  /** The task's fence, with the deadlines the agent's own clock can tell. */
  private fenceFor(
    request: Partial<StepRequest<StepName>>,
    running: Running,
    ids: { step: string },
  ): TaskFence {
    const fence = new TaskFence(this.clock);
    this.watchFence(fence, running, ids);
    if (this.options.fenceByClock === false) return fence;
    const now = this.clock.now();
    const margin = this.options.fenceMarginMs ?? 15_000;
    fence.closeAt('no heartbeat confirmed within the heartbeat timeout', now + this.heartbeatWindow());
    const { settings } = this.options.deps;
    fence.closeAt('the task timeout', now + agentTaskTimeoutSeconds(settings) * 1000 - margin);
    // The cleanup steps run on expired leases too: they only undo, and are idempotent.
    const leases = request.state?.renewal?.leases_until ?? request.state?.leases?.expires_at;
    if (leases && !CLEANUP_STEPS.has(running.step)) fence.closeAt('the leases', Date.parse(leases) - margin);
    return fence;
  }

  private watchFence(fence: TaskFence, running: Running, ids: { step: string }): void {
    fence.signal.addEventListener('abort', () => {
      const reason = (fence.signal.reason as Error).message;
      running.dropped ??= `fenced: ${reason}`;
      this.log({ event: 'task-fenced', ...ids, reason });
    });
  }

  private heartbeatWindow(): number {
    return (this.options.heartbeatTimeoutMs ?? 60_000) - (this.options.fenceMarginMs ?? 15_000);
  }

  private heartbeat(task: ActivityTask, running: Running, fence: TaskFence): void {
    if (running.dropped) return;
    // Timed out by the agent's own clock: closes the fence even while no driver call is made.
    try {
      fence.check();
    } catch {
      return;
    }
    const sentAt = this.clock.now();
    this.options.channel.sendTaskHeartbeat(task.taskToken).then(
      () =>
        fence.closeAt('no heartbeat confirmed within the heartbeat timeout', sentAt + this.heartbeatWindow()),
      (error: unknown) => {
        if (error instanceof TaskGoneError) fence.close(`heartbeat refused: ${error.message}`);
        else this.log({ event: 'heartbeat-error', error: describe(error) });
      },
    );
  }

  /** Reports until Step Functions takes it, refuses the token, or the give-up time passes. */
  private async report(
    task: ActivityTask,
    running: Running,
    outcome: { output: string } | { error: string; cause: string },
  ): Promise<void> {
    const { channel } = this.options;
    const giveUpAt = this.clock.now() + (this.options.reportGiveUpMs ?? 15 * 60_000);
    while (!running.dropped) {
      try {
        if ('output' in outcome) await channel.sendTaskSuccess(task.taskToken, outcome.output);
        else await channel.sendTaskFailure(task.taskToken, outcome.error, outcome.cause);
        return;
      } catch (error) {
        if (error instanceof TaskGoneError) {
          running.dropped = `report refused: ${error.message}`;
          return;
        }
        if (this.clock.now() >= giveUpAt) {
          running.dropped = `could not report: ${describe(error)}`;
          return;
        }
        this.log({ event: 'report-retry', error: describe(error) });
        await this.clock.sleep(this.options.reportRetryMs ?? 5_000);
      }
    }
  }

  private log(event: AgentEvent): void {
    this.options.log?.(event);
  }
}

const CLEANUP_STEPS = new Set(['rollback', 'defer']);

function parseRequest(input: string): Partial<StepRequest<StepName>> {
  try {
    return (JSON.parse(input) ?? {}) as Partial<StepRequest<StepName>>;
  } catch {
    return {};
  }
}

const describe = (error: unknown): string =>
  error instanceof Error ? `${error.name}: ${error.message}` : String(error);
