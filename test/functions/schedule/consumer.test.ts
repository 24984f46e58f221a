import { describe, expect, it } from 'vitest';
import {
  createQueueHandler,
  REQUEST_ID_ATTRIBUTE,
  type ScheduleReply,
} from '../../../functions/schedule/consumer.js';
import { LocalSqsQueue } from '../../../lib/local/sqsQueue.js';
import { ManualClock } from '../../../lib/model/clock.js';
import { QueueSendError } from '../../../lib/queue/errors.js';
import { DEAD_LETTER_ATTRIBUTE } from '../../../lib/queue/poison.js';
import type { MessageQueue } from '../../../lib/queue/port.js';
import type { FleetStore } from '../../../lib/store/fleetStore.js';
import { depsFor, NOW, putHosts, usedRam, useStoreFixture } from '../../schedule/fixtures.js';

const db = useStoreFixture((store) => putHosts(store, 3, 8192));

const body = (id: string, memoryMb = 2048) =>
  JSON.stringify({ request_id: id, flavor: { name: 'm1.medium', vcpus: 1, memory_mb: memoryMb } });

/** The stage on local queues: requests (redrive after 3 receives), replies and one dead-letter queue. */
function stage(options: { store?: FleetStore; replies?: (_queue: LocalSqsQueue) => MessageQueue } = {}) {
  const clock = new ManualClock(NOW);
  const dlq = new LocalSqsQueue({ name: 'placid-schedule-dlq', clock });
  const replies = new LocalSqsQueue({ name: 'placid-schedule-replies', clock });
  const requests = new LocalSqsQueue({
    name: 'placid-schedule',
    clock,
    redrive: { deadLetterQueue: dlq, maxReceiveCount: 3 },
  });
  const handler = createQueueHandler({
    deps: depsFor(options.store ?? db.store),
    replies: options.replies?.(replies) ?? replies,
    deadLetter: dlq,
  });
  const mapping = requests.attach(handler);
  const repliesOut = () => replies.messages().map((m) => JSON.parse(m.body) as ScheduleReply);
  return { dlq, replies, requests, mapping, repliesOut };
}

describe('the schedule queue consumer', () => {
  it('records each decision and replies with its request id and correlation id', async () => {
    // Prepare
    const s = stage();
    await s.requests.sendBatch([
      body('q-1'),
      { body: body('q-2'), attributes: { correlation_id: 'corr-9' } },
    ]);
    // Act
    await s.requests.drain();
    // Assess
    expect(s.repliesOut().map((r) => [r.request_id, r.replayed, r.decision.selected.length])).toEqual([
      ['q-1', false, 1],
      ['q-2', false, 1],
    ]);
    expect(s.replies.messages()[1].attributes).toEqual({
      [REQUEST_ID_ATTRIBUTE]: 'q-2',
      correlation_id: 'corr-9',
    });
    expect(await db.store.getDecision('q-1')).toBeDefined();
    expect(s.requests.size).toBe(0);
  });

  it('replies NoValidHost as a decision, not a failure', async () => {
    // Prepare
    const s = stage();
    await s.requests.send(body('q-huge', 64_000));
    // Act
    await s.requests.drain();
    // Assess
    expect(s.repliesOut()[0].decision.error?.type).toBe('NoValidHost');
    expect(s.dlq.size).toBe(0);
  });

  it.each([
    ['not JSON', '{"request_id":', 'not valid JSON'],
    [
      'without a request id',
      JSON.stringify({ flavor: { vcpus: 1, memory_mb: 512 } }),
      'request_id: is required',
    ],
    ['with a bad flavor', JSON.stringify({ request_id: 'q-bad', flavor: { vcpus: 'two' } }), 'flavor.vcpus'],
  ])(
    'dead-letters a request %s with its reason and lets the rest of the batch through',
    async (_case, bad, reason) => {
      // Prepare
      const s = stage();
      await s.requests.sendBatch([body('q-ok-1'), bad, body('q-ok-2')]);
      // Act
      const delivery = await s.mapping.deliverBatch();
      // Assess
      expect(delivery?.failedIds.size).toBe(0);
      expect(s.dlq.messages()).toHaveLength(1);
      expect(s.dlq.messages()[0].attributes[DEAD_LETTER_ATTRIBUTE.error]).toContain(reason);
      expect(s.repliesOut().map((r) => r.request_id)).toEqual(['q-ok-1', 'q-ok-2']);
    },
  );

  it('dead-letters a request id reused for a different request', async () => {
    // Prepare
    const s = stage();
    await s.requests.send(body('q-same'));
    await s.requests.drain();
    await s.requests.send(body('q-same', 4096));
    // Act
    await s.requests.drain();
    // Assess
    expect(s.dlq.messages()[0].attributes[DEAD_LETTER_ATTRIBUTE.errorName]).toBe('RequestIdConflictError');
  });

  it('reports only the record that failed transiently, and places it once when it comes back', async () => {
    // Prepare: the db.store is throttled once, for q-flaky only
    let throttled = false;
    const flaky = Object.assign(Object.create(db.store) as FleetStore, {
      getDecision: (id: string) => {
        if (id !== 'q-flaky' || throttled) return db.store.getDecision(id);
        throttled = true;
        return Promise.reject(Object.assign(new Error('slow down'), { name: 'ThrottlingException' }));
      },
    });
    const s = stage({ store: flaky });
    await s.requests.sendBatch([body('q-steady'), body('q-flaky')]);
    // Act
    const first = await s.mapping.deliverBatch();
    await s.requests.drain({ waitForInvisible: true });
    // Assess
    expect([...(first?.failedIds ?? [])]).toEqual([first?.messageIds[1]]);
    expect(s.repliesOut().map((r) => [r.request_id, r.replayed])).toEqual([
      ['q-steady', false],
      ['q-flaky', false],
    ]);
    expect(s.dlq.size).toBe(0);
  });

  it('replays the recorded decision when the reply could not be sent the first time', async () => {
    // Prepare: the first reply fails on SQS's side, so the record is retried
    let failures = 1;
    const s = stage({
      replies: (queue) => ({
        send: (text, attributes) =>
          failures-- > 0
            ? Promise.reject(new QueueSendError('InternalError', 'SQS had a moment', { retryable: true }))
            : queue.send(text, attributes),
        sendBatch: (messages) => queue.sendBatch(messages),
      }),
    });
    await s.requests.send(body('q-reply'));
    // Act
    await s.requests.drain({ waitForInvisible: true });
    // Assess
    const [reply] = s.repliesOut();
    expect(reply).toMatchObject({ request_id: 'q-reply', replayed: true });
    expect(await usedRam({ store: db.store }, reply.decision.selected[0].host)).toBe(2048);
  });

  it('replies to an advisory request with the verdicts, claiming nothing', async () => {
    // Prepare
    const s = stage();
    const advisory = {
      ...JSON.parse(body('q-adv')),
      advisory: true,
      candidates: [{ host: 'cmp1' }, { host: 'cmp2' }],
    };
    await s.requests.send(JSON.stringify(advisory));
    // Act
    await s.requests.drain();
    // Assess
    const [reply] = s.repliesOut();
    expect(reply).toMatchObject({ request_id: 'q-adv', replayed: false, decision: { advisory: true } });
    expect((reply.decision as { candidates: { host: string; passes: boolean }[] }).candidates).toEqual([
      expect.objectContaining({ host: 'cmp1', passes: true }),
      expect.objectContaining({ host: 'cmp2', passes: true }),
    ]);
    expect(s.replies.messages()[0].attributes).toEqual({ [REQUEST_ID_ATTRIBUTE]: 'q-adv' });
    expect(await usedRam({ store: db.store }, 'cmp1')).toBe(0);
    expect(await usedRam({ store: db.store }, 'cmp2')).toBe(0);
  });
});
