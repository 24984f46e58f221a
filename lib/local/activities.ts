/**
 * Step Functions activities, in process: the local state-machine runner schedules each on-premises
 * task here and waits, and in-process agents take them through the same TaskChannel calls they
 * make against AWS (GetActivityTask, SendTaskSuccess/Failure/Heartbeat). Each task goes to one
 * poller; a token that timed out or was answered is refused with TaskGoneError, as AWS refuses it.
 *
 * Heartbeat timeouts are measured on the given clock. `expireOverdue()` fails every task whose
 * agent has been silent longer than its HeartbeatSeconds with States.HeartbeatTimeout (so the state
 * machine's retrier sends it to the next poller); tests call it after moving their clock,
 * `watchHeartbeats` calls it on a real-time interval.
 */
import { type ActivityTask, type TaskChannel, TaskGoneError } from '../agent/channel.js';
import type { Clock } from '../model/clock.js';

interface Entry {
  token: string;
  activityArn: string;
  input: string;
  heartbeatMs: number | undefined;
  worker?: string;
  lastBeat?: number;
  resolve(output: unknown): void;
  reject(error: Error): void;
}

interface Poller {
  activityArn: string;
  worker: string;
  take(entry: Entry): void;
}

export interface Delivery {
  token: string;
  worker: string;
  step: string;
}

export class LocalActivities implements TaskChannel {
  /** Every hand-over of a task to a poller, in order. */
  readonly deliveries: Delivery[] = [];
  private readonly pending: Entry[] = [];
  private readonly started = new Map<string, Entry>();
  private readonly pollers: Poller[] = [];
  private nextToken = 0;

  constructor(
    private readonly clock: Clock,
    /** How long a GetActivityTask waits for a task (real time); AWS holds it about a minute. */
    private readonly longPollMs = 60_000,
  ) {}

  /** The runner's side: resolves with the task's output, or rejects with its error (by name). */
  schedule(
    activityArn: string,
    input: unknown,
    options: { heartbeatSeconds?: number } = {},
  ): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const entry: Entry = {
        token: `local-task-${++this.nextToken}`,
        activityArn,
        input: JSON.stringify(input),
        heartbeatMs: options.heartbeatSeconds === undefined ? undefined : options.heartbeatSeconds * 1000,
        resolve,
        reject,
      };
      const poller = this.pollers.find((p) => p.activityArn === activityArn);
      if (poller) {
        this.pollers.splice(this.pollers.indexOf(poller), 1);
        poller.take(entry);
      } else this.pending.push(entry);
    });
  }

  async getActivityTask(
    activityArn: string,
    workerName: string,
    signal?: AbortSignal,
  ): Promise<ActivityTask | undefined> {
    if (signal?.aborted) throw abortError();
    const waiting = this.pending.find((e) => e.activityArn === activityArn);
    if (waiting) {
      this.pending.splice(this.pending.indexOf(waiting), 1);
      return this.start(waiting, workerName);
    }
    return new Promise((resolve, reject) => {
      const poller: Poller = {
        activityArn,
        worker: workerName,
        take: (entry) => {
          cleanup();
          resolve(this.start(entry, workerName));
        },
      };
      const timer = setTimeout(() => {
        cleanup();
        resolve(undefined);
      }, this.longPollMs);
      timer.unref();
      const onAbort = () => {
        cleanup();
        reject(abortError());
      };
      const cleanup = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const at = this.pollers.indexOf(poller);
        if (at >= 0) this.pollers.splice(at, 1);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pollers.push(poller);
    });
  }

  async sendTaskSuccess(taskToken: string, output: string): Promise<void> {
    const entry = this.take(taskToken);
    entry.resolve(JSON.parse(output));
  }

  async sendTaskFailure(taskToken: string, error: string, cause: string): Promise<void> {
    const entry = this.take(taskToken);
    entry.reject(Object.assign(new Error(cause), { name: error }));
  }

  async sendTaskHeartbeat(taskToken: string): Promise<void> {
    const entry = this.started.get(taskToken);
    if (!entry) throw new TaskGoneError(`task ${taskToken} timed out or was answered`);
    entry.lastBeat = this.clock.now();
  }

  /** Fails every running task whose agent has been silent past its heartbeat; returns how many. */
  expireOverdue(): number {
    const now = this.clock.now();
    let expired = 0;
    for (const entry of [...this.started.values()]) {
      if (entry.heartbeatMs === undefined || now - (entry.lastBeat ?? now) <= entry.heartbeatMs) continue;
      this.started.delete(entry.token);
      const error = new Error(`no heartbeat from ${entry.worker} for ${entry.heartbeatMs / 1000} s`);
      entry.reject(Object.assign(error, { name: 'States.HeartbeatTimeout' }));
      expired++;
    }
    return expired;
  }

  /** Checks heartbeats every `everyMs` of real time until the returned function is called. */
  watchHeartbeats(everyMs = 1_000): () => void {
    const timer = setInterval(() => this.expireOverdue(), everyMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  /** Tasks handed to an agent and not yet answered. */
  get inFlight(): number {
    return this.started.size;
  }

  private start(entry: Entry, worker: string): ActivityTask {
    entry.worker = worker;
    entry.lastBeat = this.clock.now();
    this.started.set(entry.token, entry);
    const step = (JSON.parse(entry.input) as { step?: string }).step ?? 'unknown';
    this.deliveries.push({ token: entry.token, worker, step });
    return { taskToken: entry.token, input: entry.input };
  }

  private take(token: string): Entry {
    const entry = this.started.get(token);
    if (!entry) throw new TaskGoneError(`task ${token} timed out or was answered`);
    this.started.delete(token);
    return entry;
  }
}

function abortError(): Error {
  return Object.assign(new Error('the poll was aborted'), { name: 'AbortError' });
}
