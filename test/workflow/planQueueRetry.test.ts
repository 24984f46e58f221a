import { describe, expect, it } from 'vitest';
import { LocalSqsQueue } from '../../lib/local/sqsQueue.js';
import { ManualClock } from '../../lib/model/clock.js';
import type { VisibilityControl } from '../../lib/queue/port.js';
import { PLAN_WAIT, planQueueMaxReceives, planWaitSeconds } from '../../lib/workflow/planQueueRetry.js';
import { type Executions, startPlannedMigrations } from '../../lib/workflow/starter.js';
import { migration, START } from './memory.js';

// The deployed plan queue: 6 × the starter's 60 s timeout, the config's 5 receives for failures.
// Its starter shortens a waiting message's visibility to planWaitSeconds (30 s at first).
const VISIBILITY_SECONDS = 360;
const FAILURE_RECEIVES = 5;
const FOUR_DAYS = 4 * 86_400;
const TTL_MINUTES = 60;

/** Step Functions as the starter sees it: `busy(now)` says whether every slot is taken. */
class SlotExecutions implements Executions {
  readonly startedAt = new Map<string, number>();
  constructor(
    private readonly clock: ManualClock,
    private readonly busyUntil: number,
  ) {}
  async start(name: string) {
    if (this.startedAt.has(name)) return 'exists' as const;
    this.startedAt.set(name, this.clock.now());
    return 'started' as const;
  }
  async countRunning(limit: number) {
    return this.clock.now() < this.busyUntil ? limit : 0;
  }
}

/** Every start fails as a throttled StartExecution would, before and after the plan expires. */
class FailingExecutions extends SlotExecutions {
  attempts = 0;
  override async start(): Promise<'started'> {
    this.attempts++;
    throw Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' });
  }
}

type Visibility = 'shortened' | 'queue timeout' | 'refused';

/** A plan queue on the local SQS stand-in, its starter attached, one message of a 60-minute plan sent. */
async function waitingMessage(
  maxReceiveCount: number,
  busyForMs: number,
  visibility: Visibility = 'shortened',
  failing = false,
) {
  const clock = new ManualClock(START);
  const deadLetter = new LocalSqsQueue({ name: 'plans-dlq', clock });
  const plans = new LocalSqsQueue({
    name: 'plans',
    clock,
    visibilityTimeoutSeconds: VISIBILITY_SECONDS,
    redrive: { deadLetterQueue: deadLetter, maxReceiveCount },
  });
  const executions = failing
    ? new FailingExecutions(clock, START + busyForMs)
    : new SlotExecutions(clock, START + busyForMs);
  // 'refused': a queue that never received the message answers ReceiptHandleIsInvalid.
  const planQueue: VisibilityControl | undefined =
    visibility === 'shortened'
      ? plans
      : visibility === 'refused'
        ? new LocalSqsQueue({ name: 'elsewhere', clock })
        : undefined;
  plans.attach(async (event) => {
    const outcome = await startPlannedMigrations(event, {
      executions,
      maxConcurrent: 2,
      deadLetter,
      planQueue,
      clock,
    });
    return outcome.response;
  });
  const expiresAt = START + TTL_MINUTES * 60_000;
  await plans.send(JSON.stringify(migration({ plan_expires_at: new Date(expiresAt).toISOString() })));
  await plans.drain({ waitForInvisible: true, maxIterations: 1000 });
  return { plans, deadLetter, executions, expiresAt };
}

const receivesFor = (planTtlMinutes: number) =>
  planQueueMaxReceives({
    planTtlMinutes,
    failureReceives: FAILURE_RECEIVES,
    retentionSeconds: FOUR_DAYS,
  });

describe('a plan message waiting for a concurrency slot', () => {
  it('with the ordinary 5 receives, reaches the dead-letter queue while its plan is still valid', async () => {
    // Act: every slot stays busy past the plan's TTL
    const run = await waitingMessage(FAILURE_RECEIVES, 2 * TTL_MINUTES * 60_000);
    // Assess: the failure this policy prevents
    expect(run.deadLetter.size).toBe(1);
    expect(run.executions.startedAt.size).toBe(0);
  });

  it('stays on the queue until its plan expires, then is started as expired, not dead-lettered', async () => {
    // Act
    const run = await waitingMessage(receivesFor(TTL_MINUTES), 2 * TTL_MINUTES * 60_000);
    // Assess: started once the plan expired (its execution records the deferral), nothing dead-lettered
    expect(run.deadLetter.size).toBe(0);
    expect(run.plans.size).toBe(0);
    expect(run.executions.startedAt.get('mig-1')).toBeGreaterThanOrEqual(run.expiresAt);
  });

  it('starts as soon as a slot frees on a later receive, before the plan expires', async () => {
    // Act: the slots free after 40 minutes, past what 5 receives × 6 minutes would have waited
    const run = await waitingMessage(receivesFor(TTL_MINUTES), 40 * 60_000);
    // Assess: by then the waits have grown to 240 s (receives 31..40), not more
    expect(run.deadLetter.size).toBe(0);
    const started = run.executions.startedAt.get('mig-1') ?? Number.NaN;
    expect(started).toBeGreaterThanOrEqual(START + 40 * 60_000);
    expect(started).toBeLessThanOrEqual(START + 40 * 60_000 + 240_000);
  });

  it('starts within 30 s of a slot freeing early on, where the queue timeout alone waited 6 minutes', async () => {
    // Act: the slots free after 100 s
    const freedAt = START + 100_000;
    const shortened = await waitingMessage(receivesFor(TTL_MINUTES), 100_000);
    const plain = await waitingMessage(receivesFor(TTL_MINUTES), 100_000, 'queue timeout');
    // Assess
    expect(shortened.executions.startedAt.get('mig-1')).toBe(START + 4 * 30_000);
    expect((shortened.executions.startedAt.get('mig-1') ?? 0) - freedAt).toBeLessThanOrEqual(30_000);
    expect(plain.executions.startedAt.get('mig-1')).toBe(START + VISIBILITY_SECONDS * 1000);
  });

  it('falls back to the queue timeout when SQS refuses the change, and still starts the plan', async () => {
    const run = await waitingMessage(receivesFor(TTL_MINUTES), 100_000, 'refused');
    expect(run.executions.startedAt.get('mig-1')).toBe(START + VISIBILITY_SECONDS * 1000);
    expect(run.deadLetter.size).toBe(0);
  });

  it('still dead-letters a message whose start keeps failing, once its plan expired and the failure budget is spent', async () => {
    // Act: slots busy all along; every start (which only happens once the plan expired) is throttled
    const maxReceives = receivesFor(TTL_MINUTES);
    const run = await waitingMessage(maxReceives, 2 * TTL_MINUTES * 60_000, 'shortened', true);
    // Assess: dead-lettered, after the receives that found it valid, the one that found it expired
    // and the failure budget; each start after expiry used one receive
    expect(run.deadLetter.size).toBe(1);
    expect(run.plans.size).toBe(0);
    expect((run.executions as FailingExecutions).attempts).toBe(FAILURE_RECEIVES + 1);
    expect(run.deadLetter.messages()[0].receiveCount).toBe(0);
  });

  it('waits 30 s at first, doubling every 10 receives, never over the queue timeout', () => {
    const waits = [1, 10, 11, 20, 21, 31, 41, 500].map(planWaitSeconds);
    expect(waits).toEqual([30, 30, 60, 60, 120, 240, 360, 360]);
    expect(PLAN_WAIT.maxSeconds).toBe(VISIBILITY_SECONDS);
  });

  it('sizes the receives from the TTL and the wait schedule, and refuses a TTL the queue cannot hold', () => {
    // 30 min: 10 × 30 s + 10 × 60 s + 8 × 120 s; 61 min: + 10 × 120 s + 7 × 240 s
    expect(receivesFor(30)).toBe(28 + 1 + FAILURE_RECEIVES);
    expect(receivesFor(61)).toBe(37 + 1 + FAILURE_RECEIVES);
    // 4 days: 40 receives cover 75 min, then 948 × 360 s; still within SQS's 1000
    expect(receivesFor(FOUR_DAYS / 60)).toBe(988 + 1 + FAILURE_RECEIVES);
    expect(() => receivesFor(FOUR_DAYS / 60 + 1)).toThrow(
      /plan_ttl_minutes 5761: longer than the plan queue keeps/,
    );
  });

  it.each([1, 7, 30, 59, 60, 61, 240, 1440])(
    'with a %s-minute TTL, the scheduled waits of its receives cover the TTL before the budget runs out',
    (minutes) => {
      const whileValid = receivesFor(minutes) - 1 - FAILURE_RECEIVES;
      let covered = 0;
      for (let n = 1; n <= whileValid; n++) covered += planWaitSeconds(n);
      expect(covered).toBeGreaterThanOrEqual(minutes * 60);
      expect(covered - planWaitSeconds(whileValid)).toBeLessThan(minutes * 60);
    },
  );
});
