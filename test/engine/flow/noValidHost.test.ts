import { describe, expect, it } from 'vitest';
import { defineFilter, PASS } from '../../../lib/engine/filter.js';
import { ComputeFilter } from '../../../lib/engine/filters/ComputeFilter.js';
import { JsonFilter } from '../../../lib/engine/filters/JsonFilter.js';
import { RequestError } from '../../../lib/model/errors.js';
import { makeConfig, makeSpec } from '../../helpers/factories.js';
import { node, schedule, spyFilter } from './flow.js';

const down = { disabled: true, up: true };
const NOT_ENOUGH = 'No valid host was found. There are not enough hosts available.';

describe('NoValidHost (Nova select_destinations / _ensure_sufficient_hosts)', () => {
  it('reports the filters’ counts up to the one that left no host', async () => {
    // Prepare
    const later = spyFilter('LaterFilter');
    // Act
    const d = await schedule([node('a', { service: down })], makeSpec(), {
      filters: [ComputeFilter, later.filter],
    });
    // Assess
    expect([d.error, d.filter_counts, later.calls]).toEqual([
      { type: 'NoValidHost', message: NOT_ENOUGH },
      [{ filter: 'ComputeFilter', start: 1, end: 0, instance_index: 0 }],
      [],
    ]);
  });

  it('explains every host a filter removed', async () => {
    // Act
    const d = await schedule([node('a', { service: down }), node('b', { service: down })], makeSpec(), {
      filters: [ComputeFilter],
    });
    // Assess
    expect(d.eliminated().map((e) => [e.host, e.filter, e.instance_index])).toEqual([
      ['a', 'ComputeFilter', 0],
      ['b', 'ComputeFilter', 0],
    ]);
  });

  it('fails a multi-create that runs out of hosts part-way, and says which instance', async () => {
    // Prepare: the filter admits one pick per host; only b is left for the third instance.
    const once = spyFilter('OnePerHost', { passes: (h) => h.num_instances === 0 });
    // Act
    const d = await schedule([node('a'), node('b')], makeSpec({ num_instances: 3 }), {
      filters: [once.filter],
    });
    // Assess
    expect([d.error?.message, d.placements, d.filter_counts.at(-1)]).toEqual([
      NOT_ENOUGH,
      [],
      { filter: 'OnePerHost', start: 1, end: 0, instance_index: 2 },
    ]);
  });

  it('reports NoValidHost when the Placement pre-filter leaves no candidate', async () => {
    // Act
    const d = await schedule(
      [node('a', { total_usable_ram_mb: 1024, free_ram_mb: 512, vcpus_total: 4 })],
      makeSpec({ flavor: { name: 'f', vcpus: 1, memory_mb: 4096 } }),
      {
        config: makeConfig(),
      },
    );
    // Assess
    expect([d.error?.type, d.error?.message.startsWith('No valid host was found.')]).toEqual([
      'NoValidHost',
      true,
    ]);
  });

  it('reports NoValidHost for a forced host the fleet does not have', async () => {
    // Act
    const d = await schedule(
      [node('a', { total_usable_ram_mb: 8192, free_ram_mb: 8192, vcpus_total: 4 })],
      makeSpec({ force_hosts: ['zz'] }),
      {
        config: makeConfig(),
      },
    );
    // Assess
    expect(d.error?.message).toContain('No such host - host: zz');
  });

  it('does not raise a later filter’s request error when no host reaches that filter', async () => {
    // Prepare: Nova parses a JsonFilter query per host, so a malformed one never fails the request
    // when an earlier filter already removed every host.
    const spec = makeSpec({ scheduler_hints: { query: ['not json'] } });
    // Act
    const d = await schedule([node('a', { service: down })], spec, { filters: [ComputeFilter, JsonFilter] });
    // Assess
    expect(d.error?.type).toBe('NoValidHost');
  });

  it('raises a filter’s request error as soon as a host reaches that filter', async () => {
    // Prepare
    const broken = defineFilter({
      name: 'BrokenFilter',
      prepare: () => {
        throw new RequestError('BrokenFilter: bad hint');
      },
      check: () => PASS,
    });
    // Act
    const run = schedule([node('a')], makeSpec(), { filters: [broken] });
    // Assess
    await expect(run).rejects.toThrow('BrokenFilter: bad hint');
  });
});
