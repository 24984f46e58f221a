/**
 * Hostile requests through the schedule stage's two entry points, the real handlers over dynalite:
 * the queue consumer dead-letters each with the field in its reason on first sight (no retry, no
 * reply, no claim, no decision), the Function URL answers 400 naming the field and reflects nothing
 * into a header, and the next valid request is placed as usual.
 */
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createQueueHandler } from '../../../functions/schedule/consumer.js';
import { createUrlHandler } from '../../../functions/schedule/endpoint.js';
import { LocalSqsQueue } from '../../../lib/local/sqsQueue.js';
import { MAX_INSTANCES_PER_REQUEST } from '../../../lib/model/bounds.js';
import { ManualClock } from '../../../lib/model/clock.js';
import { DEAD_LETTER_ATTRIBUTE } from '../../../lib/queue/poison.js';
import {
  FLAVOR_NUMBER_FIELDS,
  HOSTILE_STRINGS,
  hostileNumber,
  hostileString,
} from '../../helpers/hostile.js';
import { depsFor, NOW, putHosts, useStoreFixture } from '../../schedule/fixtures.js';
import { answerOf, urlContext, urlEvent } from './events.js';

const db = useStoreFixture((store) => putHosts(store, 2, 16_384));

const flavor = { name: 'm1.medium', vcpus: 1, memory_mb: 2048 };
let serial = 0;
const freshId = () => `req-${++serial}`;

type Doc = Record<string, unknown>;
/** A hostile request document and the field path its refusal must name. */
interface HostileRequest {
  doc: Doc;
  path: string;
}

const hostileRequest: fc.Arbitrary<HostileRequest> = fc.oneof(
  hostileString.map((id) => ({ doc: { request_id: id, flavor }, path: 'request_id' })),
  fc
    .record({ field: fc.constantFrom(...FLAVOR_NUMBER_FIELDS), value: hostileNumber })
    .map(({ field, value }) => ({
      doc: { request_id: freshId(), flavor: { ...flavor, [field]: value } },
      path: `flavor.${field}`,
    })),
  fc.integer({ min: MAX_INSTANCES_PER_REQUEST + 1, max: 2_000_000 }).map((n) => ({
    doc: { request_id: freshId(), flavor: { ...flavor, vcpus: 0 }, num_instances: n },
    path: 'num_instances',
  })),
  fc.integer({ min: 2, max: 6 }).map((n) => ({
    doc: { request_id: freshId(), flavor, instance_uuids: Array.from({ length: n }, () => 'u') },
    path: 'instance_uuids[1]',
  })),
  fc.constant({ doc: { request_id: freshId(), flavor, instance_uuids: [] }, path: 'instance_uuids' }),
  hostileString.map((uuid) => ({
    doc: { request_id: freshId(), flavor, instance_uuids: ['ok-1', uuid] },
    path: 'instance_uuids[1]',
  })),
  hostileString
    .filter((host) => host !== '')
    .map((host) => ({
      doc: { request_id: freshId(), flavor, force_hosts: [host] },
      path: 'force_hosts[0]',
    })),
);

/** Hosts with their claims, and every recorded decision: what a refusal must leave alone. */
async function storeState() {
  const hosts = (await db.store.listHosts()).map((x) => ({
    host: x.state.host,
    version: x.version,
    claims: x.claims,
  }));
  const { Items } = await db.h.local.client.send(
    new ScanCommand({ TableName: db.store.ctx.tables.decisions }),
  );
  return { hosts, decisions: Items ?? [] };
}

function queueStage() {
  const clock = new ManualClock(NOW);
  const dlq = new LocalSqsQueue({ name: 'placid-schedule-dlq', clock });
  const replies = new LocalSqsQueue({ name: 'placid-schedule-replies', clock });
  const requests = new LocalSqsQueue({
    name: 'placid-schedule',
    clock,
    redrive: { deadLetterQueue: dlq, maxReceiveCount: 3 },
  });
  requests.attach(createQueueHandler({ deps: depsFor(db.store), replies, deadLetter: dlq }));
  return { dlq, replies, requests };
}

describe('the schedule queue consumer, given hostile requests', () => {
  it('dead-letters duplicate instance uuids with the reason; the five never share one claim', async () => {
    // Issue 12 item 3: five instances were placed under one claim, so later requests overcommitted.
    const s = queueStage();
    await s.requests.send(
      JSON.stringify({ request_id: freshId(), flavor, instance_uuids: ['u', 'u', 'u', 'u', 'u'] }),
    );
    // Act
    await s.requests.drain();
    // Assess
    expect(s.dlq.messages()).toHaveLength(1);
    expect(s.dlq.messages()[0].attributes[DEAD_LETTER_ATTRIBUTE.error]).toMatch(
      /instance_uuids\[1\]: duplicate instance uuid u \(first at instance_uuids\[0\]\)/,
    );
    expect(s.replies.size).toBe(0);
  });

  it('property: a typed refusal on first sight, nothing stored, and the next request is placed', async () => {
    const s = queueStage();
    await fc.assert(
      fc.asyncProperty(hostileRequest, async ({ doc, path }) => {
        const before = await storeState();
        const dead = s.dlq.size;
        const replies = s.replies.size;
        const received = s.requests.stats().delivered;
        // Act
        await s.requests.send(JSON.stringify(doc));
        await s.requests.drain();
        // Assess: dead-lettered by the handler after one delivery, with the field in the reason.
        expect(s.dlq.size).toBe(dead + 1);
        expect(s.requests.stats().delivered - received).toBe(1);
        expect(s.dlq.messages().at(-1)?.attributes[DEAD_LETTER_ATTRIBUTE.error]).toContain(`${path}: `);
        expect(s.replies.size).toBe(replies);
        expect(await storeState()).toEqual(before);
        // The next valid request still works.
        const id = freshId();
        await s.requests.send(JSON.stringify({ request_id: id, flavor }));
        await s.requests.drain();
        expect(s.replies.size).toBe(replies + 1);
        expect(JSON.parse(s.replies.messages().at(-1)!.body)).toMatchObject({ request_id: id });
        expect((await db.store.getDecision(id)) as unknown).toBeDefined();
      }),
      { numRuns: 10 },
    );
  });
});

describe('the schedule Function URL, given hostile requests', () => {
  const call = async (doc: Doc) => {
    const handler = createUrlHandler(depsFor(db.store));
    return answerOf(await handler(urlEvent(JSON.stringify(doc)), urlContext()));
  };

  it.each(HOSTILE_STRINGS.filter((s) => s !== ''))(
    'answers 400 for request id %j and reflects nothing',
    async (id) => {
      // Issue 12 item 7: a CRLF request id was decided, then reflected into x-placid-request-id.
      const answer = await call({ request_id: id, flavor });
      expect(answer.status).toBe(400);
      expect(answer.body.error?.type).toBe('ValidationError');
      expect((answer.body.error as unknown as { issues: { path: string }[] }).issues[0].path).toBe(
        'request_id',
      );
      expect(answer.headers['x-placid-request-id']).toBeUndefined();
    },
  );

  it('answers 400 naming num_instances for a 20,000-instance request, without running the engine', async () => {
    // Issue 12 item 10: 20k instances timed out the handler.
    const answer = await call({
      request_id: freshId(),
      flavor: { ...flavor, vcpus: 0 },
      num_instances: 20_000,
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error?.message).toMatch(
      /num_instances: must be a whole number from 1 to 1000 instances, got 20000/,
    );
  });

  it('property: 400 naming the field, nothing stored, and the next request is placed', async () => {
    await fc.assert(
      fc.asyncProperty(hostileRequest, async ({ doc, path }) => {
        const before = await storeState();
        // Act
        const answer = await call(doc);
        // Assess
        expect(answer.status).toBe(400);
        const issues = (answer.body.error as unknown as { issues: { path: string }[] }).issues;
        expect(issues.map((i) => i.path)).toContain(path);
        for (const value of Object.values(answer.headers)) expect(String(value)).not.toMatch(/[\r\n]/);
        expect(await storeState()).toEqual(before);
        const next = await call({ request_id: freshId(), flavor });
        expect(next.status).toBe(200);
      }),
      { numRuns: 10 },
    );
  });

  it('property: any value in any field is a 400 naming a field, or a decision (200/409); never a 500', async () => {
    const fields = [
      'request_id',
      'flavor',
      'num_instances',
      'instance_uuids',
      'force_hosts',
      'availability_zone',
      'scheduler_hints',
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...fields), fc.jsonValue({ maxDepth: 2 }), async (field, value) => {
        const doc: Doc = { request_id: freshId(), flavor, [field]: value };
        const before = await storeState();
        // Act
        const answer = await call(doc);
        // Assess
        expect([200, 400, 409]).toContain(answer.status);
        if (answer.status === 400) {
          const issues = (answer.body.error as unknown as { issues: { path: string }[] }).issues;
          expect(issues.length).toBeGreaterThan(0);
          expect(await storeState()).toEqual(before);
        }
      }),
      { numRuns: 20 },
    );
  });
});
