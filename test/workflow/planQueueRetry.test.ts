import { describe, expect, it } from 'vitest';
import { LocalSqsQueue } from '../../lib/local/sqsQueue.js';
import { ManualClock } from '../../lib/model/clock.js';
import { planQueueMaxReceives } from '../../lib/workflow/planQueueRetry.js';
import { type Executions, startPlannedMigrations } from '../../lib/workflow/starter.js';
import { migration, START } from './memory.js';

// The deployed plan queue: 6 × the starter's 60 s timeout, the config's 5 receives for failures.
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

/** A plan queue on the local SQS stand-in, its starter attached, one message of a 60-minute plan sent. */
async function waitingMessage(maxReceiveCount: number, busyForMs: number) {
  const clock = new ManualClock(START);
  const deadLetter = new LocalSqsQueue({ name: 'plans-dlq', clock });
  const plans = new LocalSqsQueue({
    name: 'plans',
    clock,
    visibilityTimeoutSeconds: VISIBILITY_SECONDS,
    redrive: { deadLetterQueue: deadLetter, maxReceiveCount },
  });
  const executions = new SlotExecutions(clock, START + busyForMs);
  plans.attach(async (event) => {
    const outcome = await startPlannedMigrations(event, {
      executions,
      maxConcurrent: 2,
      deadLetter,
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
    visibilityTimeoutSeconds: VISIBILITY_SECONDS,
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
    // Assess
    expect(run.deadLetter.size).toBe(0);
    const started = run.executions.startedAt.get('mig-1') ?? Number.NaN;
    expect(started).toBeGreaterThanOrEqual(START + 40 * 60_000);
    expect(started).toBeLessThan(run.expiresAt);
  });

  it('sizes the receives from the TTL and the visibility timeout, and refuses a TTL the queue cannot hold', () => {
    expect(receivesFor(30)).toBe(5 + 1 + FAILURE_RECEIVES);
    expect(receivesFor(61)).toBe(11 + 1 + FAILURE_RECEIVES);
    expect(() => receivesFor(FOUR_DAYS / 60 + 1)).toThrow(
      /plan_ttl_minutes 5761: longer than the plan queue keeps/,
    );
  });
});
