import { describe, expect, it } from 'vitest';
import type { ScheduleDecision } from '../../lib/engine/explain.js';
import { recordedDecisionJson, requestHash } from '../../lib/schedule/record.js';
import { makeHost, makeSpec } from '../helpers/factories.js';

/** A decision with `weighed` passing hosts and `eliminated` removed ones, each reason `reasonChars` long. */
function decision(weighed: number, eliminated: number, reasonChars = 20): ScheduleDecision {
  const host = (i: number) => makeHost({ host: `h${i}`, nodename: `h${i}` });
  return {
    request_id: 'r',
    placements: [{ instance_uuid: 'u', host: host(0), alternates: [host(1)] }],
    weighed: Array.from({ length: weighed }, (_, i) => ({
      host: host(i),
      weight: 1 - i / 1000,
      breakdown: [],
    })),
    filter_counts: [],
    eliminated: () =>
      Array.from({ length: eliminated }, (_, i) => ({
        host: `x${i}`,
        nodename: `x${i}`,
        filter: 'ComputeFilter',
        reason: 'r'.repeat(reasonChars),
        instance_index: 0,
      })),
    error: null,
  };
}

describe('recordedDecisionJson', () => {
  it('keeps short lists whole and says nothing was omitted', () => {
    // Act
    const json = recordedDecisionJson(decision(3, 2), 1);
    // Assess
    expect(json.weighed).toHaveLength(3);
    expect(json.eliminated).toHaveLength(2);
    expect(json.omitted).toBeUndefined();
  });

  it('keeps the best-weighed hosts and the first eliminations up to the list limit, and counts the rest', () => {
    // Act
    const json = recordedDecisionJson(decision(150, 130), 1, 1_000_000, 100);
    // Assess
    expect(json.weighed.map((w) => w.host).slice(0, 2)).toEqual(['h0', 'h1']);
    expect([json.weighed.length, json.eliminated.length]).toEqual([100, 100]);
    expect(json.omitted).toEqual({ weighed: 50, eliminated: 30 });
    expect(json.selected).toEqual([{ host: 'h0', nodename: 'h0' }]);
  });

  it('shortens the lists further until the JSON fits the byte budget', () => {
    // Act
    const json = recordedDecisionJson(decision(10, 100, 1_000), 1, 30_000, 100);
    // Assess
    expect(Buffer.byteLength(JSON.stringify(json))).toBeLessThanOrEqual(30_000);
    expect(json.eliminated.length).toBeLessThan(30);
    expect(json.omitted?.eliminated).toBe(100 - json.eliminated.length);
  });
});

describe('requestHash', () => {
  it('does not depend on the order of fields', () => {
    // Prepare
    const a = makeSpec({ request_id: 'r', flavor: { name: 'f', vcpus: 1, memory_mb: 512 } });
    const b = makeSpec({ flavor: { memory_mb: 512, vcpus: 1, name: 'f' }, request_id: 'r' });
    // Act / Assess
    expect(requestHash(a)).toBe(requestHash(b));
  });

  it('changes when the request does', () => {
    // Prepare
    const a = makeSpec({ request_id: 'r', flavor: { name: 'f', vcpus: 1, memory_mb: 512 } });
    const b = makeSpec({ request_id: 'r', flavor: { name: 'f', vcpus: 2, memory_mb: 512 } });
    // Act / Assess
    expect(requestHash(a)).not.toBe(requestHash(b));
  });
});
