import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../lib/model/errors.js';
import { type AdvisoryRecord, adviseRequest } from '../../lib/schedule/advisory.js';
import { scheduleRequest } from '../../lib/schedule/core.js';
import { RequestIdConflictError } from '../../lib/schedule/errors.js';
import { parseDecisionRequest } from '../../lib/schedule/request.js';
import { depsFor, hostReport, request, usedRam, useStoreFixture } from './fixtures.js';

const db = useStoreFixture(async (store) => {
  for (const [name, ram] of [
    ['a', 4096],
    ['b', 16_384],
    ['c', 8192],
    ['tiny', 1024],
    ['outside', 32_768],
  ] as const) {
    await store.putHostReport(hostReport(name, ram));
  }
});

const refs = (...names: string[]) => names.map((n) => ({ host: n, nodename: n }));

describe('adviseRequest', () => {
  it('judges only the candidates: weights for those that pass, the filter and reason for the others', async () => {
    // Act
    const { answer, recorded } = await adviseRequest(
      request('adv-1'),
      refs('a', 'b', 'c', 'tiny', 'ghost'),
      depsFor(db.store),
      { explain: true },
    );
    // Assess
    expect(recorded).toBe(true);
    expect(answer.candidates.map((c) => [c.host, c.passes])).toEqual([
      ['a', true],
      ['b', true],
      ['c', true],
      ['tiny', false],
    ]);
    const weight = (name: string) => {
      const v = answer.candidates.find((c) => c.host === name);
      return v?.passes ? v.weight : Number.NaN;
    };
    expect(weight('b')).toBeGreaterThan(weight('c'));
    expect(weight('c')).toBeGreaterThan(weight('a'));
    expect(answer.candidates[3]).toMatchObject({ filter: expect.stringMatching(/^Placement/) });
    expect((answer.candidates[3] as { reason: string }).reason).toMatch(/2048 MB RAM/);
    expect(answer.unknown).toEqual(refs('ghost'));
    // The host with the most free RAM is not a candidate, so it is not chosen.
    expect(answer.selected).toEqual(refs('b'));
  });

  it('leaves out the filter and reason unless explain is asked (the fast path keeps none)', async () => {
    // Act
    const { answer } = await adviseRequest(request('adv-fast'), refs('b', 'tiny'), depsFor(db.store));
    // Assess
    expect(answer.candidates).toEqual([
      { host: 'b', nodename: 'b', passes: true, weight: expect.any(Number) },
      { host: 'tiny', nodename: 'tiny', passes: false },
    ]);
  });

  it('claims nothing and records the decision as advisory', async () => {
    // Act
    await adviseRequest(request('adv-2'), refs('a', 'b'), depsFor(db.store));
    // Assess
    expect(await usedRam({ store: db.store }, 'b')).toBe(0);
    const record = (await db.store.getDecision<AdvisoryRecord>('adv-2'))?.decision;
    expect(record).toMatchObject({ advisory: true, candidates: 2, unknown: 0, placements: [] });
    expect(record?.decision.selected).toEqual(refs('b'));
  });

  it('hands the record to deferWrite unstarted and answers without waiting for it', async () => {
    // Prepare
    const writes: (() => Promise<unknown>)[] = [];
    const deps = { ...depsFor(db.store), deferWrite: (w: () => Promise<unknown>) => void writes.push(w) };
    // Act
    const { recorded } = await adviseRequest(request('adv-deferred'), refs('a'), deps);
    // Assess: nothing is written until the caller starts the write
    expect(recorded).toBe('deferred');
    expect(writes).toHaveLength(1);
    expect(await db.store.getDecision('adv-deferred')).toBeUndefined();
    await expect(writes[0]()).resolves.toBe(true);
    expect(await db.store.getDecision('adv-deferred')).toBeDefined();
  });

  it('decides a repeated request id again (nothing is claimed) and keeps the first record', async () => {
    // Prepare
    const deps = depsFor(db.store);
    await adviseRequest(request('adv-3'), refs('a', 'b'), deps);
    // Act: Nova retries a live migration under the same request id, without the host that failed
    const again = await adviseRequest(request('adv-3'), refs('a'), deps);
    // Assess
    expect(again.recorded).toBe(false);
    expect(again.answer.selected).toEqual(refs('a'));
    const record = (await db.store.getDecision<AdvisoryRecord>('adv-3'))?.decision;
    expect(record?.decision.selected).toEqual(refs('b'));
  });

  it('refuses to place a request under an id an advisory decision holds', async () => {
    // Prepare
    await adviseRequest(request('adv-4'), refs('a'), depsFor(db.store));
    // Act / Assess
    await expect(scheduleRequest(request('adv-4'), depsFor(db.store))).rejects.toBeInstanceOf(
      RequestIdConflictError,
    );
  });

  it('judges a candidate listed twice once', async () => {
    // Act
    const { answer } = await adviseRequest(request('adv-5'), refs('a', 'a', 'b'), depsFor(db.store));
    // Assess
    expect(answer.candidates.map((c) => c.host)).toEqual(['a', 'b']);
  });

  it('answers NoValidHost with every candidate eliminated, and still records it', async () => {
    // Act
    const { answer, recorded } = await adviseRequest(request('adv-6'), refs('tiny'), depsFor(db.store));
    // Assess
    expect(answer.error?.type).toBe('NoValidHost');
    expect(answer.candidates).toEqual([expect.objectContaining({ host: 'tiny', passes: false })]);
    expect(recorded).toBe(true);
  });
});

describe('parseDecisionRequest', () => {
  const spec = { request_id: 'p-1', flavor: { vcpus: 1, memory_mb: 512 } };

  it('reads candidates for an advisory request, the nodename defaulting to the host', () => {
    // Act
    const parsed = parseDecisionRequest({
      ...spec,
      advisory: true,
      candidates: [{ host: 'x' }, { host: 'y', nodename: 'y-n' }],
    });
    // Assess
    expect(parsed.candidates).toEqual([
      { host: 'x', nodename: 'x' },
      { host: 'y', nodename: 'y-n' },
    ]);
    expect(parsed.spec.request_id).toBe('p-1');
  });

  it('reads explain for an advisory request only', () => {
    // Act / Assess
    expect(parseDecisionRequest({ ...spec, advisory: true, candidates: [], explain: true }).explain).toBe(
      true,
    );
    expect(() => parseDecisionRequest({ ...spec, explain: true })).toThrow('explain: needs advisory: true');
  });

  it('has no candidates for a request that is placed', () => {
    expect(parseDecisionRequest({ ...spec, advisory: false }).candidates).toBeUndefined();
  });

  it.each([
    ['candidates without advisory', { candidates: [{ host: 'x' }] }, 'candidates: needs advisory: true'],
    ['advisory that is not a boolean', { advisory: 'yes' }, 'advisory: must be true or false'],
    ['advisory without candidates', { advisory: true }, 'candidates: is required with advisory: true'],
    ['a candidate without a host', { advisory: true, candidates: [{ nodename: 'n' }] }, 'candidates[0].host'],
    [
      'a candidate that is not an object',
      { advisory: true, candidates: ['x'] },
      'candidates[0]: must be an object',
    ],
    [
      'a nodename that is not a string',
      { advisory: true, candidates: [{ host: 'x', nodename: 3 }] },
      'candidates[0].nodename: must be a string when given',
    ],
    [
      'a nova_release that is not a string',
      { advisory: true, candidates: [], nova_release: 26 },
      'nova_release: must be a string',
    ],
  ])('refuses %s, naming the field', (_case, extra, message) => {
    // Act / Assess
    expect(() => parseDecisionRequest({ ...spec, ...extra })).toThrow(ValidationError);
    expect(() => parseDecisionRequest({ ...spec, ...extra })).toThrow(message);
  });

  it('reports the spec problems and the candidate problems together', () => {
    // Act / Assess
    expect(() => parseDecisionRequest({ advisory: true, candidates: 'x', flavor: {} })).toThrow(
      /request_id: is required.*candidates: is required/,
    );
  });
});
