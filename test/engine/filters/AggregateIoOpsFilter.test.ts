import { describe, expect, it } from 'vitest';
import { AggregateIoOpsFilter } from '../../../lib/engine/filters/AggregateIoOpsFilter.js';
import type { HostStateInput } from '../../../lib/model/hostSchema.js';
import { makeConfig } from '../../helpers/factories.js';
import { explanation, flags, host, passes, rebuildSpec, survivors } from './filterHarness.js';

type Aggregates = HostStateInput['aggregates'];
const aggs = (...values: string[]): Aggregates =>
  values.map((v, i) => ({ name: `agg${i}`, metadata: { max_io_ops_per_host: v } }));
const config = makeConfig({ filter_scheduler: { max_io_ops_per_host: 8 } });

/** The limit the filter applies, found as the smallest io-op count it rejects. */
function effectiveLimit(aggregates: Aggregates): number {
  for (let n = 0; n < 100; n++) {
    if (!passes(AggregateIoOpsFilter, host({ num_io_ops: n, aggregates }), { config })) return n;
  }
  return Number.POSITIVE_INFINITY;
}

describe('AggregateIoOpsFilter', () => {
  it('runs for every instance and not on rebuild', () => {
    expect(flags(AggregateIoOpsFilter)).toEqual({ once: false, rebuild: false });
  });

  it.each([
    ['uses the config value when the host has no aggregates', [], 8],
    ['uses the config value when no aggregate sets the key', [{ name: 'a', metadata: { other: '1' } }], 8],
    ['uses an aggregate value below the config value', aggs('3'), 3],
    ['uses an aggregate value above the config value', aggs('20'), 20],
    ['takes the smallest value across aggregates', aggs('6', '2', '4'), 2],
    ['accepts surrounding whitespace, as Python int() does', aggs(' 5 '), 5],
    ['falls back to the config value when one value is not an integer', aggs('2', 'many'), 8],
    ['falls back to the config value for a decimal', aggs('2.5'), 8],
  ])('%s', (_case, aggregates, expected) => {
    expect(effectiveLimit(aggregates as Aggregates)).toBe(expected);
  });

  it('applies each host its own aggregates within one run', async () => {
    // Prepare
    const tight = aggs('1');
    const hosts = [
      host({ host: 'tight-a', num_io_ops: 1, aggregates: tight }),
      host({ host: 'loose', num_io_ops: 1, aggregates: aggs('4') }),
      host({ host: 'tight-b', num_io_ops: 0, aggregates: tight }),
      host({ host: 'plain', num_io_ops: 7 }),
    ];
    // Act
    const left = await survivors(AggregateIoOpsFilter, hosts, { config });
    // Assess
    expect(left).toEqual(['loose', 'tight-b', 'plain']);
  });

  it.each([
    [
      'names the smallest aggregate value',
      aggs('6', '2'),
      "max_io_ops_per_host is 2 (the smallest aggregate metadata max_io_ops_per_host among '6', '2')",
    ],
    [
      'says why an unparsable value gave way to the config value',
      aggs('x'),
      "max_io_ops_per_host is 8 ([filter_scheduler] max_io_ops_per_host, because aggregate metadata max_io_ops_per_host='x' is not an integer)",
    ],
    [
      'says when no aggregate sets the limit',
      [],
      'max_io_ops_per_host is 8 ([filter_scheduler] max_io_ops_per_host; no aggregate of the host sets max_io_ops_per_host)',
    ],
  ])('explains: %s', (_case, aggregates, expected) => {
    const text = explanation(AggregateIoOpsFilter, host({ num_io_ops: 9, aggregates }), { config });
    expect(text).toContain('host has 9 I/O-heavy operations in progress');
    expect(text).toContain(expected);
  });

  it('passes every host on a rebuild', async () => {
    const hosts = [host({ num_io_ops: 9, aggregates: aggs('1') })];
    expect(await survivors(AggregateIoOpsFilter, hosts, { spec: rebuildSpec(), config })).toEqual(['h0']);
  });
});
