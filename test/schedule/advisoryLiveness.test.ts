/** Nova decides liveness in advisory decisions; Placid refuses odd names one by one (issue 28). */
import { describe, expect, it } from 'vitest';
import { parseReportMessage } from '../../lib/model/reports.js';
import { adviseRequest } from '../../lib/schedule/advisory.js';
import { parseDecisionRequest } from '../../lib/schedule/request.js';
import { at, hypervisorDoc, messageDoc } from '../store/fixtures.js';
import { depsFor, hostReport, request, useStoreFixture } from './fixtures.js';

/** A host report with service fields of its own (reported a minute before NOW). */
function reportWithService(host: string, ramMb: number, service: Record<string, unknown>) {
  const doc = hypervisorDoc({
    host,
    nodename: host,
    total_usable_ram_mb: ramMb,
    free_ram_mb: ramMb,
    service,
  });
  return parseReportMessage(JSON.stringify(messageDoc([doc])), new Date(at(-1)), 'test').hypervisors[0];
}

const db = useStoreFixture(async (store) => {
  await store.putHostReport(hostReport('fresh-small', 4096));
  await store.putHostReport(hostReport('fresh-big', 16_384));
  // Last reported ten minutes before NOW: ComputeFilter would call it down (60 s + one interval).
  await store.putHostReport(hostReport('silent', 8192, at(-10)));
  // Too small for the request, and silent: stale all the same, never eliminated for it.
  await store.putHostReport(hostReport('silent-tiny', 1024, at(-10)));
  await store.putHostReport(reportWithService('reported-down', 8192, { up: false }));
});

const refs = (...names: string[]) => names.map((n) => ({ host: n, nodename: n }));

describe('advisory liveness is Nova’s', () => {
  it('answers a candidate whose report is stale as stale: passes, neutral weight, its age', async () => {
    // Act
    const { answer } = await adviseRequest(
      request('live-1'),
      refs('fresh-small', 'silent', 'fresh-big', 'silent-tiny'),
      depsFor(db.store),
    );
    // Assess
    const [small, silent, big, tiny] = answer.candidates;
    expect(silent).toEqual({
      host: 'silent',
      nodename: 'silent',
      passes: true,
      stale: true,
      report_age_seconds: 600,
      weight: small.passes ? small.weight : Number.NaN,
    });
    expect(tiny).toMatchObject({ passes: true, stale: true, report_age_seconds: 600 });
    expect(big).toMatchObject({ passes: true });
    expect(big).not.toHaveProperty('stale');
    expect(answer.selected).toEqual(refs('fresh-big'));
    expect(answer.error).toBeUndefined();
  });

  it('passes stale candidates even when none is fresh, and reports no NoValidHost', async () => {
    // Act
    const { answer } = await adviseRequest(
      request('live-2'),
      refs('silent', 'silent-tiny'),
      depsFor(db.store),
    );
    // Assess
    expect(answer.candidates.every((c) => c.passes && c.stale && c.weight === 0)).toBe(true);
    expect(answer.error).toBeUndefined();
  });

  it('judges a candidate whose last report said its service was down as up (Nova sent it)', async () => {
    // Act
    const { answer } = await adviseRequest(request('live-3'), refs('reported-down'), depsFor(db.store), {
      explain: true,
    });
    // Assess
    expect(answer.candidates).toEqual([
      { host: 'reported-down', nodename: 'reported-down', passes: true, weight: expect.any(Number) },
    ]);
  });
});

describe('refused candidate names', () => {
  const spec = { request_id: 'r-1', flavor: { name: 'm1', vcpus: 1, memory_mb: 2048 } };
  const odd = [
    { host: '', why: /host must not be empty/ },
    { host: 'cmp\u0007bell', why: /control character/ },
    { host: 'half-\ud800', why: /lone surrogate/ },
    { host: 'x'.repeat(256), why: /256 characters/ },
  ];

  it.each(odd)(
    'refuses the candidate $host.length-character name alone, with the reason',
    ({ host, why }) => {
      // Act
      const parsed = parseDecisionRequest({
        ...spec,
        advisory: true,
        candidates: [{ host: 'fresh-big' }, { host }, { host: 'ok', nodename: host || 'n' }],
      });
      // Assess
      expect(parsed.candidates).toEqual(
        host ? refs('fresh-big') : [...refs('fresh-big'), { host: 'ok', nodename: 'n' }],
      );
      expect(parsed.refused?.[0]).toMatchObject({ host, nodename: host, reason: expect.stringMatching(why) });
      if (host)
        expect(parsed.refused?.[1]).toMatchObject({
          host: 'ok',
          reason: expect.stringMatching(/^nodename /),
        });
    },
  );

  it('decides the other candidates and answers the refused ones beside unknown', async () => {
    // Prepare
    const parsed = parseDecisionRequest({
      ...spec,
      advisory: true,
      candidates: [{ host: 'fresh-big' }, { host: 'bad\nname' }, { host: 'ghost' }],
    });
    // Act
    const { answer } = await adviseRequest(parsed.spec, parsed.candidates!, depsFor(db.store), parsed);
    // Assess
    expect(answer.candidates).toEqual([expect.objectContaining({ host: 'fresh-big', passes: true })]);
    expect(answer.unknown).toEqual(refs('ghost'));
    expect(answer.refused).toEqual([
      { host: 'bad\nname', nodename: 'bad\nname', reason: expect.stringMatching(/control character/) },
    ]);
  });

  it('still refuses a malformed request as a whole: a host that is not a string', () => {
    expect(() => parseDecisionRequest({ ...spec, advisory: true, candidates: [{ host: 7 }] })).toThrow(
      'candidates[0].host: must be a string',
    );
  });
});
