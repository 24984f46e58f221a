import { describe, expect, it } from 'vitest';
import { narrowHosts, narrows } from '../../lib/engine/narrow.js';
import type { RequestSpecInput } from '../../lib/model/requestSchema.js';
import { makeHost, makeSpec } from '../helpers/factories.js';

describe('narrows', () => {
  it.each<[string, Partial<RequestSpecInput>, boolean]>([
    ['a plain request', {}, false],
    ['a requested destination host', { requested_destination: { host: 'h1' } }, true],
    ['a requested destination with only a cell', { requested_destination: { cell: 'c1' } }, false],
    ['ignore_hosts', { ignore_hosts: ['h1'] }, true],
    ['force_hosts', { force_hosts: ['h1'] }, true],
    ['force_nodes', { force_nodes: ['n1'] }, true],
  ])('is %s → %s', (_case, input, expected) => {
    // Act + Assess
    expect(narrows(makeSpec(input))).toBe(expected);
  });
});

describe('narrowHosts', () => {
  it('keeps every host when nothing narrows the request', () => {
    // Prepare
    const hosts = [makeHost({ host: 'h1' }), makeHost({ host: 'h2' })];
    // Act
    const narrowed = narrowHosts(hosts, makeSpec(), true);
    // Assess
    expect(narrowed.hosts).toEqual(hosts);
    expect(narrowed.removals).toEqual([]);
    expect(narrowed.skipFilters).toBe(false);
  });

  it('names the step that removed each host, steps in order', () => {
    // Prepare
    const hosts = ['h1', 'h2', 'h3'].map((h) => makeHost({ host: h, nodename: h }));
    // Act
    const narrowed = narrowHosts(hosts, makeSpec({ ignore_hosts: ['H3'], force_hosts: ['h2'] }), true);
    // Assess
    expect(narrowed.hosts.map((h) => h.host)).toEqual(['h2']);
    expect(narrowed.removals.map((r) => [r.host.host, r.stage])).toEqual([
      ['h3', 'ignore_hosts'],
      ['h1', 'force_hosts'],
    ]);
    expect(narrowed.skipFilters).toBe(true);
  });
});
