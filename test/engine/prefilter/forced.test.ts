import { describe, expect, it } from 'vitest';
import { NoValidHostError } from '../../../lib/engine/errors.js';
import type { RequestSpecInput } from '../../../lib/model/requestSchema.js';
import { makeSpec } from '../../helpers/factories.js';
import { computeHost, kept, prefilter, removed } from './helpers.js';

function fleet() {
  return [
    computeHost({ host: 'alpha', nodename: 'alpha' }),
    computeHost({ host: 'beta', nodename: 'beta-1' }),
    computeHost({ host: 'beta', nodename: 'beta-2' }),
    computeHost({ host: 'gamma', nodename: 'gamma', free_ram_mb: 0 }),
  ];
}

describe('placementPrefilter forced host/node (in_tree)', () => {
  it.each<{ name: string; spec: Partial<RequestSpecInput>; expected: string[] }>([
    {
      name: 'a forced host with one node is the only candidate',
      spec: { force_hosts: ['alpha'] },
      expected: ['alpha'],
    },
    {
      name: 'the host name matches case-insensitively',
      spec: { force_hosts: ['ALPHA'] },
      expected: ['alpha'],
    },
    {
      name: 'only the first forced host is looked up',
      spec: { force_hosts: ['alpha', 'beta'] },
      expected: ['alpha'],
    },
    {
      name: 'a host with several nodes is not narrowed (Nova only lifts the limit)',
      spec: { force_hosts: ['beta'] },
      expected: ['alpha', 'beta', 'beta'],
    },
    { name: 'a forced node is the only candidate', spec: { force_nodes: ['beta-2'] }, expected: ['beta'] },
    {
      name: 'requested_destination wins over force_hosts',
      spec: { requested_destination: { host: 'beta', node: 'beta-1' }, force_hosts: ['alpha'] },
      expected: ['beta'],
    },
  ])('$name', ({ spec, expected }) => {
    // Act
    const result = prefilter(fleet(), makeSpec(spec));
    // Assess
    expect(kept(result)).toEqual(expected);
  });

  it('the forced host still has to fit the request', () => {
    // Act
    const result = prefilter(fleet(), makeSpec({ force_hosts: ['gamma'] }));
    // Assess
    expect(result.hosts).toEqual([]);
    expect(removed(result).gamma[0]).toBe('Placement:MEMORY_MB');
  });

  it('explains why the other hosts are not candidates', () => {
    // Act
    const result = prefilter(fleet(), makeSpec({ force_hosts: ['alpha'] }));
    // Assess
    expect(result.removals.map((r) => r.stage)).toEqual([
      'Placement:in_tree',
      'Placement:in_tree',
      'Placement:in_tree',
    ]);
    expect(result.removals[0].reason()).toContain('the request targets alpha/alpha');
  });

  it('looks at the forced host only when removals are not recorded', () => {
    // Act
    const result = prefilter(fleet(), makeSpec({ force_nodes: ['alpha'] }), undefined, false);
    // Assess
    expect(kept(result)).toEqual(['alpha']);
    expect(result.removals).toEqual([]);
  });

  it.each<{ name: string; spec: Partial<RequestSpecInput>; message: string }>([
    {
      name: 'an unknown forced host',
      spec: { force_hosts: ['delta'] },
      message: 'No such host - host: delta node: None',
    },
    {
      name: 'an unknown forced node',
      spec: { force_nodes: ['Alpha'] },
      message: 'No such host - host: None node: Alpha',
    },
    {
      name: 'a known host with an unknown node',
      spec: { requested_destination: { host: 'beta', node: 'beta-3' } },
      message: 'host: beta node: beta-3',
    },
    {
      name: 'a host outside the requested cell',
      spec: { requested_destination: { host: 'alpha', cell: 'cell2' } },
      message: 'host: alpha node: None in cell cell2',
    },
  ])('fails the request for $name', ({ spec, message }) => {
    // Act
    const run = () => prefilter(fleet(), makeSpec(spec));
    // Assess
    expect(run).toThrow(NoValidHostError);
    expect(run).toThrow(message);
  });
});
