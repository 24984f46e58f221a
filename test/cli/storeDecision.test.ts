import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalPipeline } from '../../lib/local/pipeline.js';
import { liveHostReport } from '../schedule/fixtures.js';
import { runCli, TEST_CONFIG, tempFiles } from './runCli.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const REQUEST = { flavor: { name: 'm1.medium', vcpus: 1, memory_mb: 2048 } };

/** A data dir whose store holds hosts `name → free RAM MiB`, plus request and config files. */
async function storedFleet(hosts: Record<string, number>, request: object = REQUEST) {
  const files = tempFiles('placid-store-cli-');
  dirs.push(files.dir);
  const dataDir = `${files.dir}/dynamo`;
  const pipeline = await LocalPipeline.start({ dataDir, stages: [] });
  try {
    for (const [name, ram] of Object.entries(hosts))
      await pipeline.store.putHostReport(liveHostReport(name, ram));
  } finally {
    await pipeline.close();
  }
  const request_ = files.write('request.json', request);
  const config = files.write('nova.conf', TEST_CONFIG);
  return {
    dataDir,
    args: ['schedule', '--store', '--data-dir', dataDir, '--request', request_, '--config', config],
  };
}

/** Claims pending in the stored fleet, as `host/instance`. */
async function storedClaims(dataDir: string): Promise<string[]> {
  const pipeline = await LocalPipeline.start({ dataDir, stages: [] });
  try {
    const hosts = await pipeline.store.listHosts();
    return hosts.flatMap((x) => Object.keys(x.claims).map((id) => `${x.state.host}/${id}`));
  } finally {
    await pipeline.close();
  }
}

describe('placid schedule --store', () => {
  it('explains a placement over the stored fleet and claims nothing', async () => {
    // Prepare
    const { dataDir, args } = await storedFleet({ small: 4096, big: 16_384 });
    // Act
    const run = await runCli([...args, '--json']);
    // Assess
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout).selected).toEqual([{ host: 'big', nodename: 'big' }]);
    expect(await storedClaims(dataDir)).toEqual([]);
  });

  it('exits 1 with a hint when the store has no hosts yet', async () => {
    // Prepare
    const { args } = await storedFleet({});
    // Act
    const run = await runCli([...args, '--json']);
    // Assess
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('has no hosts yet');
  });

  it('with --claim, claims and records once, and replays the decision when run again', async () => {
    // Prepare
    const { dataDir, args } = await storedFleet(
      { small: 4096, big: 16_384 },
      { ...REQUEST, request_id: 'cli-1' },
    );
    const first = await runCli([...args, '--claim', '--json']);
    // Act
    const again = await runCli([...args, '--claim']);
    // Assess
    expect(first.status).toBe(0);
    expect(again.status).toBe(0);
    expect(again.stdout).toContain('Decided before');
    expect(again.stdout).toContain(JSON.stringify(JSON.parse(first.stdout), null, 2));
    expect(await storedClaims(dataDir)).toEqual(['big/cli-1-instance-0']);
  });

  it.each([
    ['--hosts together with --store', (args: string[]) => [...args, '--hosts', 'hosts.json'], 'not both'],
    [
      '--claim without --store',
      (args: string[]) => [...args.filter((a) => a !== '--store'), '--claim'],
      'need --store',
    ],
  ])('exits 2 for %s', async (_case, argv, message) => {
    // Prepare
    const { args } = await storedFleet({ a: 4096 });
    // Act
    const run = await runCli(argv(args));
    // Assess
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(message);
  });

  it('exits 2 when neither --hosts nor --store says where the fleet is', async () => {
    // Prepare
    const files = tempFiles();
    const request = files.write('request.json', REQUEST);
    // Act
    const run = await runCli(['schedule', '--request', request]);
    // Assess
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('--hosts FILE, or --store');
  });
});
