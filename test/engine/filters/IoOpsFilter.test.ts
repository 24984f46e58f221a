import { describe, expect, it } from 'vitest';
import { IoOpsFilter } from '../../../lib/engine/filters/IoOpsFilter.js';
import { makeConfig } from '../../helpers/factories.js';
import { agg, explanation, flags, host, passes, rebuildSpec, survivors } from './filterHarness.js';

const limit = (max_io_ops_per_host: number) => makeConfig({ filter_scheduler: { max_io_ops_per_host } });

describe('IoOpsFilter', () => {
  it('runs for every instance and not on rebuild', () => {
    expect(flags(IoOpsFilter)).toEqual({ once: false, rebuild: false });
  });

  it.each([
    ['passes a host below the default limit of 8', 7, undefined, true],
    ['fails a host at the limit (the comparison is strict)', 8, undefined, false],
    ['fails a host above the limit', 9, undefined, false],
    ['passes an idle host', 0, undefined, true],
    ['follows a configured limit', 3, 4, true],
    ['fails every host when the limit is 0', 0, 0, false],
  ])('%s', (_case, numIoOps, max, expected) => {
    const config = max === undefined ? makeConfig() : limit(max);
    expect(passes(IoOpsFilter, host({ num_io_ops: numIoOps }), { config })).toBe(expected);
  });

  it('ignores aggregate metadata (only AggregateIoOpsFilter reads it)', () => {
    const h = host({ num_io_ops: 5, aggregates: agg({ max_io_ops_per_host: '2' }) });
    expect(passes(IoOpsFilter, h)).toBe(true);
  });

  it('explains with the host count and the limit', () => {
    const text = explanation(IoOpsFilter, host({ num_io_ops: 8 }));
    expect(text).toBe(
      'host has 8 I/O-heavy operations in progress; max_io_ops_per_host is 8 ' +
        '([filter_scheduler] max_io_ops_per_host), so it needs fewer than 8',
    );
  });

  it('still filters the second instance of a multi-create', async () => {
    // Prepare
    const hosts = [host({ host: 'idle' }), host({ host: 'busy', num_io_ops: 8 })];
    // Act
    const left = await survivors(IoOpsFilter, hosts, { index: 1 });
    // Assess
    expect(left).toEqual(['idle']);
  });

  it('passes every host on a rebuild', async () => {
    const hosts = [host({ host: 'busy', num_io_ops: 80 })];
    expect(await survivors(IoOpsFilter, hosts, { spec: rebuildSpec() })).toEqual(['busy']);
  });
});
