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
  it('hands back the very input list when nothing narrows it (no copy)', () => {
    // Prepare
    const hosts = [makeHost({ host: 'h1' }), makeHost({ host: 'h2' })];
    // Act
    const narrowed = narrowHosts(hosts, makeSpec());
    // Assess
    expect(narrowed.hosts).toBe(hosts);
    expect(narrowed.skipFilters).toBe(false);
  });
});
