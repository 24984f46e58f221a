import { describe, expect, it } from 'vitest';
import { SeriesMapper, withoutPort } from '../../lib/collect/mapping.js';
import { MAPPING_DEFAULTS } from '../../lib/collect/mappingConfig.js';
import { buildMetricTable } from '../../lib/collect/metricTable.js';
import type { Series } from '../../lib/collect/ports.js';
import { node, server } from './factories.js';

const SERVERS = [
  server('u-1', 'web-1', ['10.0.0.1']),
  server('u-2', 'twin', ['fd00::2']),
  server('u-3', 'twin'),
];
const HOSTS = [node('n-1', 'cmp-1', '192.0.2.1'), node('n-2', 'cmp-2')];

describe('SeriesMapper', () => {
  const mapper = new SeriesMapper(SERVERS, HOSTS, MAPPING_DEFAULTS);

  it.each([
    ['a uuid label', { uuid: 'u-3' }, 'u-3'],
    ['an address with a port', { instance: '10.0.0.1:9100' }, 'u-1'],
    ['a bracketed IPv6 address', { instance: '[fd00::2]:9100' }, 'u-2'],
    ['a name', { instance: 'web-1:9100' }, 'u-1'],
  ])('maps a VM series by %s', (_how, labels, id) => {
    expect(mapper.resolve('vm', labels)).toEqual({ outcome: 'mapped', id });
  });

  it('tries the rules in order: a uuid label wins over the instance label', () => {
    expect(mapper.resolve('vm', { uuid: 'u-3', instance: '10.0.0.1:9100' })).toEqual({
      outcome: 'mapped',
      id: 'u-3',
    });
  });

  it('maps a name shared by two VMs to neither', () => {
    expect(mapper.resolve('vm', { instance: 'twin:9100' })).toEqual({
      outcome: 'ambiguous',
      label: 'instance',
      value: 'twin',
    });
  });

  it.each([
    ['its name', { instance: 'cmp-2:9100' }, 'n-2'],
    ['its IP', { instance: '192.0.2.1:9100' }, 'n-1'],
  ])('maps a host series by %s', (_how, labels, id) => {
    expect(mapper.resolve('host', labels)).toEqual({ outcome: 'mapped', id });
  });

  it('uses the first group of a rule regex', () => {
    const byFqdn = new SeriesMapper([], HOSTS, {
      vm: MAPPING_DEFAULTS.vm,
      host: [{ label: 'fqdn', match: 'host', regex: '^([^.]+)\\.' }],
    });
    expect(byFqdn.resolve('host', { fqdn: 'cmp-2.dc1.example.com' })).toEqual({
      outcome: 'mapped',
      id: 'n-2',
    });
  });

  it('leaves a series with none of the labels unmapped', () => {
    expect(mapper.resolve('vm', { job: 'node' })).toEqual({ outcome: 'unmapped' });
  });

  it.each([
    ['vm-a:9100', 'vm-a'],
    ['[fd00::1]:9100', 'fd00::1'],
    ['fd00::1', 'fd00::1'],
    ['vm-a', 'vm-a'],
  ])('strips the port of %s', (value, stripped) => {
    expect(withoutPort(value)).toBe(stripped);
  });
});

describe('buildMetricTable', () => {
  const mapper = new SeriesMapper(SERVERS, HOSTS, MAPPING_DEFAULTS);
  const at = (v: number) => [{ t: 0, v }];

  it('sorts each series into mapped, unmapped, ambiguous, other-kind and duplicate', () => {
    // Prepare
    const series: Series[] = [
      { labels: { instance: 'web-1:9100', job: 'a' }, points: at(1) },
      { labels: { instance: '10.0.0.1:9100', job: 'b' }, points: at(2) },
      { labels: { instance: 'twin:9100' }, points: at(3) },
      { labels: { instance: 'cmp-1:9100' }, points: at(4) },
      { labels: { instance: 'stray:9100' }, points: at(5) },
    ];
    // Act
    const { table, stats } = buildMetricTable(
      [{ name: 'vm_load5', text: 'node_load5', result: { series, warnings: [] } }],
      mapper,
    );
    // Assess: the first of the two series for u-1 (in label order) is used.
    expect(table.get('vm_load5', 'u-1', 0)).toEqual({ status: 'ok', value: 2 });
    expect(stats.duplicates.map((d) => d.entity)).toEqual(['u-1']);
    expect(stats.ambiguous.map((a) => a.value)).toEqual(['instance=twin']);
    expect(stats.otherKind).toBe(1);
    expect(stats.unmapped).toEqual([{ labels: '{instance="stray:9100"}', queries: ['vm_load5'] }]);
  });

  it('tells a failed query from a turned-off one and from a missing value', () => {
    const { table } = buildMetricTable(
      [
        { name: 'vm_steal', text: 'x', error: 'timeout' },
        { name: 'vm_wait' },
        { name: 'vm_load5', text: 'y', result: { series: [], warnings: [] } },
      ],
      mapper,
    );
    expect(['vm_steal', 'vm_wait', 'vm_load5'].map((q) => table.get(q as never, 'u-1', 0).status)).toEqual([
      'failed',
      'off',
      'missing',
    ]);
  });
});
