import { describe, expect, it } from 'vitest';
import { runCli, TEST_CONFIG, tempFiles } from './runCli.js';

const az = (name: string) => ({ name, hosts: [], metadata: { availability_zone: name } });
const HOSTS = [
  { host: 'a', free_ram_mb: 1024, aggregates: [az('az1')] },
  { host: 'b', free_ram_mb: 8192, aggregates: [az('az1')] },
  { host: 'c', free_ram_mb: 4096, aggregates: [az('az1')], service: { disabled: true } },
  { host: 'e', free_ram_mb: 9999, aggregates: [az('az2')] },
];
const advisory = (candidates: string[]) => ({
  flavor: { name: 'm1.small', vcpus: 1, memory_mb: 512 },
  availability_zone: 'az1',
  advisory: true,
  candidates: candidates.map((host) => ({ host, nodename: host })),
});

function args(request: unknown, ...more: string[]) {
  const t = tempFiles();
  return [
    'schedule',
    '--hosts',
    t.write('hosts.json', HOSTS),
    '--request',
    t.write('request.json', request),
    '--config',
    t.write('nova.conf', TEST_CONFIG),
    ...more,
  ];
}

describe('placid schedule with an advisory request', () => {
  it("prints each candidate's verdict and weight as JSON, and exits 0", async () => {
    // Act
    const run = await runCli(args(advisory(['a', 'b', 'c', 'zz'])));
    // Assess
    expect(run.status).toBe(0);
    const answer = JSON.parse(run.stdout);
    expect(answer.candidates.map((c: { host: string; passes: boolean }) => [c.host, c.passes])).toEqual([
      ['a', true],
      ['b', true],
      ['c', false],
    ]);
    expect(answer.candidates[2]).toMatchObject({ filter: 'ComputeFilter' });
    expect(answer.unknown).toEqual([{ host: 'zz', nodename: 'zz' }]);
    expect(answer.selected).toEqual([{ host: 'b', nodename: 'b' }]);
  });

  it('exits 1 when no candidate passes', async () => {
    // Act: e is in the other zone, c is disabled
    const run = await runCli(args(advisory(['c', 'e'])));
    // Assess
    expect(run.status).toBe(1);
    expect(JSON.parse(run.stdout).error.type).toBe('NoValidHost');
  });

  it('refuses --claim, which an advisory request cannot do', async () => {
    // Act
    const run = await runCli(args(advisory(['a']), '--claim'));
    // Assess
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('an advisory request claims nothing');
  });

  it('names a bad candidate field and exits 2', async () => {
    // Act
    const run = await runCli(args({ ...advisory([]), candidates: [{ host: 7 }] }));
    // Assess
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('candidates[0].host: must be a string');
  });
});
