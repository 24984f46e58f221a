import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { closeSync, openSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { exampleInputs } from '../../lib/cli/demo.js';
import { packageRoot } from '../../lib/config/packageRoot.js';
import { runCli, TEST_CONFIG, tempFiles } from './runCli.js';

const az = (name: string) => ({ name, hosts: [], metadata: { availability_zone: name } });

const HOSTS = [
  { host: 'a', free_ram_mb: 1024, aggregates: [az('az1')] },
  { host: 'b', free_ram_mb: 8192, aggregates: [az('az1')] },
  { host: 'c', free_ram_mb: 4096, aggregates: [az('az1')], service: { disabled: true } },
  { host: 'd', free_ram_mb: 8192, aggregates: [az('az1')] },
  { host: 'e', free_ram_mb: 9999, aggregates: [az('az2')] },
];
const REQUEST = { flavor: { name: 'm1.small', vcpus: 1, memory_mb: 512 }, availability_zone: 'az1' };

function files(hosts: unknown = HOSTS, request: unknown = REQUEST, config: string = TEST_CONFIG) {
  const t = tempFiles();
  return {
    hosts: t.write('hosts.json', hosts),
    request: t.write('request.json', request),
    config: t.write('nova.conf', config),
    write: t.write,
  };
}

function scheduleArgs(f: { hosts: string; request: string; config: string }, ...more: string[]) {
  return ['schedule', '--hosts', f.hosts, '--request', f.request, '--config', f.config, ...more];
}

describe('placid schedule --json', () => {
  it('prints the selected host, alternates, weighed and eliminated hosts, and exits 0', async () => {
    // Prepare
    const f = files();
    // Act
    const run = await runCli(scheduleArgs(f, '--json'));
    // Assess
    expect(run.status).toBe(0);
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({
      selected: [{ host: 'b', nodename: 'b' }],
      alternates: [
        { host: 'd', nodename: 'd' },
        { host: 'a', nodename: 'a' },
      ],
      weighed: [
        { host: 'b', nodename: 'b', weight: 1 },
        { host: 'd', nodename: 'd', weight: 1 },
        { host: 'a', nodename: 'a', weight: 0.125 },
      ],
      eliminated: [
        {
          host: 'e',
          nodename: 'e',
          filter: 'AvailabilityZoneFilter',
          reason: expect.stringContaining('az2'),
        },
        { host: 'c', nodename: 'c', filter: 'ComputeFilter', reason: expect.stringContaining('disabled') },
      ],
    });
  });

  it('exits 1 on NoValidHost and still prints the decision with its error', async () => {
    // Prepare
    const f = files(HOSTS, { ...REQUEST, availability_zone: 'az9' });
    // Act
    const run = await runCli(scheduleArgs(f, '--json'));
    // Assess
    const out = JSON.parse(run.stdout);
    expect(run.status).toBe(1);
    expect(out.selected).toEqual([]);
    expect(out.weighed).toEqual([]);
    expect(out.eliminated).toHaveLength(5);
    expect(out.error).toEqual({ type: 'NoValidHost', message: expect.stringContaining('No valid host') });
  });

  it('gives one selected host per instance and indexes alternates and eliminations', async () => {
    // Prepare
    const f = files(HOSTS, { ...REQUEST, num_instances: 2 });
    // Act
    const run = await runCli(scheduleArgs(f, '--json'));
    // Assess
    const out = JSON.parse(run.stdout);
    expect(run.status).toBe(0);
    expect(out.selected).toEqual([
      { host: 'b', nodename: 'b' },
      { host: 'd', nodename: 'd' },
    ]);
    expect(out.alternates[0]).toEqual({
      host: expect.any(String),
      nodename: expect.any(String),
      instance_index: 0,
    });
    expect(out.alternates.map((a: { instance_index: number }) => a.instance_index)).toContain(1);
    expect(out.eliminated).toContainEqual(expect.objectContaining({ host: 'e', instance_index: 0 }));
    // Every row has the documented keys, in the documented order.
    for (const row of out.eliminated)
      expect(Object.keys(row)).toEqual(['host', 'nodename', 'filter', 'reason', 'instance_index']);
    for (const row of out.weighed) expect(Object.keys(row)).toEqual(['host', 'nodename', 'weight']);
  });

  it('reads a JSON config', async () => {
    // Prepare
    const f = files();
    const config = f.write('config.json', {
      filter_scheduler: { enabled_filters: ['ComputeFilter'], weight_classes: ['RAMWeigher'] },
      placid: { placement_prefilter: false },
    });
    // Act
    const run = await runCli(scheduleArgs({ ...f, config }, '--json'));
    // Assess: without AvailabilityZoneFilter, e (most free RAM, other AZ) wins
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout).selected).toEqual([{ host: 'e', nodename: 'e' }]);
  });
  it("resolves Placid's own filters by name, which live above the engine", async () => {
    // Prepare: the move filters pass every host of a request that is not a planned move, and
    // ComputeVariantFilter every host of a request that asks for no variant.
    const f = files();
    const names = [
      'ComputeFilter',
      'ComputeVariantFilter',
      'SameAvailabilityZoneFilter',
      'HostStealFilter',
      'RoleSpreadFilter',
    ];
    const config = f.write('config.json', {
      filter_scheduler: { enabled_filters: names, weight_classes: ['RAMWeigher'] },
      placid: { placement_prefilter: false },
    });
    // Act
    const run = await runCli(scheduleArgs({ ...f, config }, '--json'));
    // Assess
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout).selected).toEqual([{ host: 'e', nodename: 'e' }]);
  });

  it("uses Nova's default configuration when --config is omitted", async () => {
    // Prepare
    const examples = exampleInputs();
    // Act
    const run = await runCli([
      'schedule',
      '--hosts',
      examples.hosts,
      '--request',
      examples.request,
      '--json',
    ]);
    // Assess: AggregateInstanceExtraSpecsFilter is not a default filter, so the HDD host stays in
    const out = JSON.parse(run.stdout);
    expect(run.status).toBe(0);
    expect(out.weighed.map((w: { host: string }) => w.host)).toContain('cmp-az1-04');
  });
});

describe('placid schedule (readable output)', () => {
  it('shows the choice, the filter counts, the weigher breakdown and the eliminations', async () => {
    // Prepare
    const f = files();
    // Act
    const run = await runCli(scheduleArgs(f));
    // Assess
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('Placed on: b\nAlternates: d, a');
    expect(run.stdout).toMatch(/AvailabilityZoneFilter\s+5\s+→\s+4\s+\(-1\)/);
    expect(run.stdout).toMatch(/1\. b\s+weight 1\n\s+RAMWeigher\s+raw 8192\s+normalised 1\s+× 1\s+= 1/);
    expect(run.stdout).toMatch(/ComputeFilter \(1\):\n\s+c\s+nova-compute on c is disabled/);
  });

  it('caps long lists and says how to see everything', async () => {
    // Prepare
    const many = Array.from({ length: 25 }, (_, i) => ({
      host: `h${i}`,
      free_ram_mb: 1000 + i,
      service: { disabled: i >= 10 },
    }));
    const f = files(many, { flavor: REQUEST.flavor });
    // Act
    const run = await runCli(scheduleArgs(f));
    // Assess
    expect(run.stdout).toContain('ComputeFilter (15):');
    expect(run.stdout).toContain('… and 5 more hosts (--json lists them all)');
    expect(run.stdout).toMatch(/Weighed hosts \(10 hosts passed every filter; best first\)/);
    expect(run.stdout).not.toContain('6. ');
  });
});

describe('placid schedule errors', () => {
  it.each([
    [
      'a hosts entry with a bad field',
      [{ host: 'a', free_ram_mb: 'lots' }],
      REQUEST,
      'hosts.json: [0].free_ram_mb:',
    ],
    ['a request without a flavor', HOSTS, { availability_zone: 'az1' }, 'request.json: flavor:'],
    ['hosts that are not an array', { host: 'a' }, REQUEST, 'hosts.json: (root):'],
  ])('exits 2 naming the file and field for %s', async (_name, hosts, request, message) => {
    // Prepare
    const f = files(hosts, request);
    // Act
    const run = await runCli(scheduleArgs(f, '--json'));
    // Assess
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^placid: [^\n]+\n$/);
    expect(run.stderr).toContain(message);
  });

  it.each([
    [
      'an unknown option',
      '[filter_scheduler]\nenabled_filter = ComputeFilter\n',
      'nova.conf:2: [filter_scheduler] unknown option enabled_filter (did you mean enabled_filters?)',
    ],
    [
      'a bad value',
      '[filter_scheduler]\nhost_subset_size = many\n',
      '[filter_scheduler] host_subset_size = "many": expected an integer >= 1',
    ],
    [
      'an unknown filter',
      '[filter_scheduler]\nenabled_filters = ComputFilter\n',
      'unknown filter ComputFilter (did you mean ComputeFilter?)',
    ],
  ])('exits 2 on a config with %s', async (_name, config, message) => {
    // Prepare
    const f = files(HOSTS, REQUEST, config);
    // Act
    const run = await runCli(scheduleArgs(f));
    // Assess
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(message);
  });

  it('exits 2 when a plugin fails, naming the plugin', async () => {
    // Prepare
    const f = files();
    f.write(
      'broken.mjs',
      "export const BrokenFilter = { name: 'BrokenFilter', check() { throw new Error('boom'); } };\n",
    );
    const config = f.write(
      'plugin.conf',
      TEST_CONFIG.replace(
        'ComputeFilter\n',
        'ComputeFilter, BrokenFilter\navailable_filters = nova.scheduler.filters.all_filters\navailable_filters = ./broken.mjs\n',
      ),
    );
    // Act
    const run = await runCli(['schedule', '--hosts', f.hosts, '--request', f.request, '--config', config]);
    // Assess
    expect(run.status).toBe(2);
    expect(run.stderr).toBe('placid: BrokenFilter: failed on host a: boom\n');
  });

  it.each([
    [
      'a missing hosts file',
      (f: ReturnType<typeof files>) => scheduleArgs({ ...f, hosts: `${f.hosts}.missing` }),
      'cannot read hosts file',
    ],
    [
      'a hosts path that is a directory',
      (f: ReturnType<typeof files>) => scheduleArgs({ ...f, hosts: dirname(f.hosts) }),
      'it is a directory',
    ],
    [
      'a missing config file',
      (f: ReturnType<typeof files>) => scheduleArgs({ ...f, config: `${f.config}.missing` }),
      'cannot read config file',
    ],
    [
      'invalid JSON',
      (f: ReturnType<typeof files>) => scheduleArgs({ ...f, request: f.write('bad.json', '{"flavor":') }),
      'bad.json: not valid JSON',
    ],
    [
      'a hosts file cut short (read host by host, worded by the whole parse)',
      (f: ReturnType<typeof files>) =>
        scheduleArgs({ ...f, hosts: f.write('cut.json', '[{"host":"a"},{"host":"b"') }),
      'cut.json: not valid JSON (',
    ],
    [
      'a missing required option',
      (f: ReturnType<typeof files>) => ['schedule', '--hosts', f.hosts],
      "required option '--request <file>' not specified",
    ],
    [
      'an unknown option',
      (f: ReturnType<typeof files>) => [...scheduleArgs(f), '--jsno'],
      "unknown option '--jsno'",
    ],
    ['an unknown command', () => ['shedule'], "unknown command 'shedule'"],
  ])('exits 2 with one line on stderr for %s', async (_name, argv, message) => {
    // Prepare
    const f = files();
    // Act
    const run = await runCli(argv(f));
    // Assess
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^placid: [^\n]+\n$/);
    expect(run.stderr).toContain(message);
  });
});

describe('placid --help', () => {
  it.each([[['--help']], [['schedule', '--help']]])(
    'documents the exit statuses (%j) and exits 0',
    async (argv) => {
      // Act
      const run = await runCli(argv);
      // Assess
      expect(run.status).toBe(0);
      expect(run.stdout).toContain('Exit status:');
      expect(run.stdout).toContain('1  NoValidHost');
    },
  );
});

describe('the built placid binary', () => {
  const root = packageRoot();

  beforeAll(() => {
    execFileSync(process.execPath, ['scripts/build-cli.mjs'], { cwd: root });
  });

  it('schedules from the command line, whatever the working directory', () => {
    // Prepare
    const f = files();
    // Act
    const run = spawnSync(process.execPath, [join(root, 'bin/placid.cjs'), ...scheduleArgs(f, '--json')], {
      cwd: tmpdir(),
      encoding: 'utf8',
    });
    // Assess
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout).selected).toEqual([{ host: 'b', nodename: 'b' }]);
  });

  it.each([
    ['of the common shape (the fast path)', HOSTS],
    [
      'that need zod (a NUMA host): the whole parse reads the same bytes again',
      [...HOSTS, { host: 'n', free_ram_mb: 1024, aggregates: [az('az1')], numa_topology: { cells: [] } }],
    ],
  ])('reads hosts %s from a pipe (--hosts /dev/stdin), which can be read only once', (_name, hosts) => {
    // Prepare
    const f = files();
    const file = f.write('h.json', hosts);
    // Act: through a real pipe, as `cat h.json | placid schedule --hosts /dev/stdin` gives it
    const run = spawnSync(
      '/bin/sh',
      ['-c', 'cat "$0" | "$@"', file, process.execPath, join(root, 'bin/placid.cjs')].concat(
        scheduleArgs({ ...f, hosts: '/dev/stdin' }, '--json'),
      ),
      { cwd: tmpdir(), encoding: 'utf8' },
    );
    // Assess: the file's answer, as read from disk
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const fromFile = spawnSync(
      process.execPath,
      [join(root, 'bin/placid.cjs'), ...scheduleArgs({ ...f, hosts: file }, '--json')],
      { cwd: tmpdir(), encoding: 'utf8' },
    );
    expect(run.stdout).toBe(fromFile.stdout);
    expect(JSON.parse(run.stdout).selected).toEqual([{ host: 'b', nodename: 'b' }]);
  });

  it.each([
    ['JavaScript', 'not-b.mjs', 'const NOT_B = { message: () => "b is out" };'],
    [
      'TypeScript (.mts)',
      'not-b.mts',
      'const NOT_B: { message: () => string } = { message: () => "b is out" };',
    ],
    // A .ts file outside a "type": "module" package is CommonJS to Node.
    [
      'TypeScript (.ts)',
      'not-b.ts',
      'const NOT_B: { message: () => string } = { message: () => "b is out" };',
    ],
  ])('loads a %s plug-in on its first run and on runs from the compile cache', (_lang, name, rejection) => {
    // Prepare: a filter that removes b (otherwise the best host), and a compile cache of its own
    const f = files();
    f.write(
      name,
      `${rejection}\nexport const NotBFilter = { name: 'NotBFilter', check: (host) => (host.host === 'b' ? NOT_B : true) };\n`,
    );
    const config = f.write(
      'plugin.conf',
      TEST_CONFIG.replace(
        'ComputeFilter\n',
        `ComputeFilter, NotBFilter\navailable_filters = nova.scheduler.filters.all_filters\navailable_filters = ./${name}\n`,
      ),
    );
    const env = {
      ...process.env,
      NODE_COMPILE_CACHE: join(tempFiles().dir, 'cache'),
      NODE_DISABLE_COMPILE_CACHE: '',
    };
    // Act
    const runs = [1, 2].map(() =>
      spawnSync(
        process.execPath,
        [join(root, 'bin/placid.cjs'), ...scheduleArgs({ ...f, config }, '--json')],
        {
          cwd: tmpdir(),
          encoding: 'utf8',
          env,
        },
      ),
    );
    // Assess
    for (const run of runs) {
      expect([run.status, run.stderr]).toEqual([0, '']);
      expect(JSON.parse(run.stdout).selected).toEqual([{ host: 'd', nodename: 'd' }]);
    }
    expect(readdirSync(join(env.NODE_COMPILE_CACHE, 'placid'))).toHaveLength(1);
  });

  it('stops quietly when its reader closes the pipe early (schedule --json | head)', async () => {
    // Prepare: enough hosts that the JSON is several pipe buffers long
    const hosts = Array.from({ length: 3000 }, (_, i) => ({
      host: `h${i}`,
      free_ram_mb: 4096,
      aggregates: [az('az1')],
    }));
    const f = files(hosts);
    const child = spawn(process.execPath, [join(root, 'bin/placid.cjs'), ...scheduleArgs(f, '--json')], {
      cwd: tmpdir(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    // Act: read one chunk, then close the reading end as `head` does
    const first = await new Promise<string>((resolve) =>
      child.stdout.once('data', (c) => resolve(String(c))),
    );
    child.stdout.destroy();
    const status = await new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    // Assess
    expect(first.startsWith('{')).toBe(true);
    expect(stderr).toBe('');
    expect(status).toBe(0);
  });

  it('names an output it cannot write and exits 2, not 1 (NoValidHost)', () => {
    // Prepare: stdout on a device that is always full
    const full = openSync('/dev/full', 'w');
    try {
      // Act
      const run = spawnSync(
        process.execPath,
        [join(root, 'bin/placid.cjs'), ...scheduleArgs(files(), '--json')],
        {
          cwd: tmpdir(),
          stdio: ['ignore', full, 'pipe'],
          encoding: 'utf8',
        },
      );
      // Assess
      expect(run.stderr).toBe(
        'placid: cannot write the output (ENOSPC: no space left on device, write); send it to a file or device that takes it\n',
      );
      expect(run.status).toBe(2);
    } finally {
      closeSync(full);
    }
  });

  it(`keeps store commands' stderr clean on Node ${process.versions.node} (no AWS SDK Node-version notice)`, () => {
    // Prepare: the environment as a user has it, without the variable the CLI sets itself
    const { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: _, ...env } = process.env;
    const dataDir = join(tempFiles().dir, 'store');
    const placid = (...args: string[]) =>
      spawnSync(process.execPath, [join(root, 'bin/placid.cjs'), ...args, '--data-dir', dataDir], {
        cwd: tmpdir(),
        encoding: 'utf8',
        env,
      });
    // Act
    const ingest = placid('ingest', join(root, 'examples/reports/fleet.json'));
    const fleet = placid('fleet');
    // Assess
    expect([ingest.status, ingest.stderr]).toEqual([0, '']);
    expect([fleet.status, fleet.stderr]).toEqual([0, '']);
    expect(fleet.stdout).toMatch(/^Fleet at .*: 3 hosts in 2 zones/);
  });
});

describe('placid schedule with [DEFAULT] allocation ratios', () => {
  it('keeps the ratios hosts report and warns, naming the option, when the config differs', async () => {
    // Prepare: a shared nova.conf with cpu_allocation_ratio = 16; hosts report 1.0 and have 2 vCPUs
    const hosts = HOSTS.map((h) => ({ ...h, vcpus_total: 2, vcpus_used: 2, cpu_allocation_ratio: 1 }));
    const request = { ...REQUEST, flavor: { ...REQUEST.flavor, vcpus: 1 } };
    const config = `${TEST_CONFIG}\n[DEFAULT]\ncpu_allocation_ratio = 16\n`;
    const f = files(hosts, request, config.replace('ComputeFilter', 'ComputeFilter, CoreFilter'));
    // Act
    const run = await runCli(scheduleArgs(f, '--json'));
    // Assess: every host is full at its own ratio, so nothing fits
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(
      /^placid: warning: \[DEFAULT\] cpu_allocation_ratio = 16 is not applied to 5 host\(s\)/,
    );
  });
});
