import { describe, expect, it } from 'vitest';
import { AggregateMultiTenancyIsolation } from '../../../lib/engine/filters/AggregateMultiTenancyIsolation.js';
import type { HostStateInput } from '../../../lib/model/hostSchema.js';
import { makeSpec } from '../../helpers/factories.js';
import { explanation, flags, host, passes, survivors } from './filterHarness.js';

type Aggregates = HostStateInput['aggregates'];
const aggs = (...metadata: Record<string, string>[]): Aggregates =>
  metadata.map((m, i) => ({ name: `agg${i}`, metadata: m }));
const project = (project_id: string | null) => makeSpec({ project_id });

describe('AggregateMultiTenancyIsolation', () => {
  it('runs once per request and not on rebuild', () => {
    expect(flags(AggregateMultiTenancyIsolation)).toEqual({ once: true, rebuild: false });
  });

  it.each([
    ['passes a host without aggregates', [], 'p1', true],
    ['passes a host whose aggregates restrict no tenant', aggs({ ssd: 'true' }), 'p1', true],
    ['passes the listed project', aggs({ filter_tenant_id: 'p1' }), 'p1', true],
    ['fails a project that is not listed', aggs({ filter_tenant_id: 'p2' }), 'p1', false],
    ['reads a comma-separated list with spaces', aggs({ filter_tenant_id: 'p2, p1' }), 'p1', true],
    ['counts keys that extend the prefix', aggs({ filter_tenant_id_gr2: 'p1' }), 'p1', true],
    ['fails on a key that extends the prefix too', aggs({ filter_tenant_id_gr2: 'p2' }), 'p1', false],
    [
      'unions the projects of every key and aggregate',
      aggs({ filter_tenant_id: 'p2' }, { filter_tenant_id_x: 'p3', filter_tenant_id: 'p1' }),
      'p1',
      true,
    ],
    ['ignores keys that only contain the prefix', aggs({ my_filter_tenant_id: 'p2' }), 'p1', true],
    ['fails a request without a project on a restricted host', aggs({ filter_tenant_id: 'p1' }), null, false],
    ['passes a request without a project on an open host', aggs({ ssd: 'true' }), null, true],
  ])('%s', (_case, aggregates, projectId, expected) => {
    const h = host({ aggregates: aggregates as Aggregates });
    expect(passes(AggregateMultiTenancyIsolation, h, { spec: project(projectId) })).toBe(expected);
  });

  it('keeps other projects off reserved hosts but lets the reserved project go anywhere', async () => {
    // Prepare
    const hosts = [
      host({ host: 'reserved', aggregates: aggs({ filter_tenant_id: 'vip' }) }),
      host({ host: 'open' }),
    ];
    // Act
    const vip = await survivors(AggregateMultiTenancyIsolation, hosts, { spec: project('vip') });
    const other = await survivors(AggregateMultiTenancyIsolation, hosts, { spec: project('other') });
    // Assess
    expect(vip).toEqual(['reserved', 'open']);
    expect(other).toEqual(['open']);
  });

  it('is skipped for the second instance of a multi-create', async () => {
    const hosts = [host({ aggregates: aggs({ filter_tenant_id: 'vip' }) })];
    expect(await survivors(AggregateMultiTenancyIsolation, hosts, { index: 1 })).toEqual(['h0']);
  });

  it('explains with the allowed projects and the requesting one', () => {
    const h = host({ aggregates: aggs({ filter_tenant_id: 'a,b', filter_tenant_id_2: 'c' }) });
    expect(explanation(AggregateMultiTenancyIsolation, h, { spec: project('p9') })).toBe(
      "host's aggregates reserve it for projects a, b, c (filter_tenant_id* metadata); project p9 is not one of them",
    );
  });
});
