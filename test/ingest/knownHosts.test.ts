import { describe, expect, it } from 'vitest';
import { KnownHosts, unknownHostIssues } from '../../lib/ingest/knownHosts.js';
import { message } from '../store/fixtures.js';
import { hypervisorDoc, instanceDoc } from './harness.js';

/** A lookup over a fixed set of stored nodes that records every call. */
function storeWith(...nodes: string[]) {
  const calls: string[] = [];
  const known = new KnownHosts(async (host, nodename) => {
    calls.push(`${host}/${nodename}`);
    return nodes.includes(`${host}/${nodename}`);
  });
  return { known, calls };
}

const node = (host: string, nodename = host) => ({ host, nodename });

describe('KnownHosts', () => {
  it('looks a stored node up once, then answers from its cache', async () => {
    // Prepare
    const { known, calls } = storeWith('cmp1/cmp1');
    // Act
    const first = await known.missing([node('cmp1')]);
    const second = await known.missing([node('cmp1')]);
    // Assess
    expect([first, second]).toEqual([[], []]);
    expect(calls).toEqual(['cmp1/cmp1']);
  });

  it('looks an unknown node up again next time (its first report may arrive meanwhile)', async () => {
    // Prepare
    const { known, calls } = storeWith();
    // Act
    await known.missing([node('ghost')]);
    const again = await known.missing([node('ghost')]);
    // Assess
    expect(again).toEqual([node('ghost')]);
    expect(calls).toEqual(['ghost/ghost', 'ghost/ghost']);
  });

  it('looks each distinct node up once per call', async () => {
    // Prepare
    const { known, calls } = storeWith();
    // Act
    await known.missing([node('a'), node('a'), node('b')]);
    // Assess
    expect(calls).toEqual(['a/a', 'b/b']);
  });

  it('needs no lookup for nodes it was told were stored', async () => {
    // Prepare
    const { known, calls } = storeWith();
    known.remember([node('fresh')]);
    // Act
    const missing = await known.missing([node('fresh')]);
    // Assess
    expect(missing).toEqual([]);
    expect(calls).toEqual([]);
  });
});

describe('unknownHostIssues', () => {
  it('names each instance whose node is neither in the message nor in the store', async () => {
    // Prepare
    const { known } = storeWith('stored/stored');
    const msg = message(
      [hypervisorDoc({ host: 'here', nodename: 'here' })],
      [
        instanceDoc({ uuid: 'i0', host: 'here', nodename: 'here' }),
        instanceDoc({ uuid: 'i1', host: 'stored', nodename: 'stored' }),
        instanceDoc({ uuid: 'i2', host: 'ghost', nodename: 'ghost' }),
      ],
    );
    // Act
    const issues = await unknownHostIssues(msg, known);
    // Assess
    expect(issues).toEqual([
      { path: 'instances[2].host', message: expect.stringMatching(/^ghost is not a known compute node/) },
    ]);
  });

  it('makes no lookup when every instance is on a node of the same message', async () => {
    // Prepare
    const { known, calls } = storeWith();
    const msg = message(
      [hypervisorDoc({ host: 'h', nodename: 'h' })],
      [instanceDoc({ host: 'h', nodename: 'h' })],
    );
    // Act
    const issues = await unknownHostIssues(msg, known);
    // Assess
    expect(issues).toEqual([]);
    expect(calls).toEqual([]);
  });
});
