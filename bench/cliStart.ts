/**
 * The `placid` CLI against a bare node doing the least the same job needs: `placid --help` against
 * `node -e 0`, and `placid schedule --json` over 20k hosts against a node that reads and parses
 * the same two files, for three shapes of host: plain (capacity, aggregates, service), with
 * Nova's compute-monitor metrics, and with NUMA topology, PCI pools and a PCPU inventory, as
 * libvirt hypervisors report them. CPU time (user + system) of each child, from bash's `time` (to the
 * millisecond; /usr/bin/time rounds to 10 ms, a twelfth of the bare parse), median of RUNS;
 * wall time is reported too. The ratios are the median of each run's ratio to the bare node run
 * just after it: the machine's speed drifts over a run of RUNS (the bare node's CPU alone moved
 * 190–300 ms), and a pair taken together shares the drift. With valgrind installed, each schedule
 * pair's instruction counts too: repeatable where the times are not, for comparing two builds.
 * The CLI keeps its compiled code between runs (bin/compileCache.cjs): the ratios are of runs with
 * the cache written, as an operator's runs after the first are; a first run (no cache yet) is
 * measured beside them.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median, percentile, readSection, round } from './stats.js';

// Odd, so the median is a run; 9 because the machine these run on is shared and noisy.
const RUNS = 9;
const HOSTS = 20_000;

export async function benchCliStart(): Promise<Record<string, unknown>> {
  const build = spawnSync('node', ['scripts/build-cli.mjs'], { stdio: 'inherit' });
  if (build.status !== 0) throw new Error('npm run build failed');
  const dir = mkdtempSync(join(tmpdir(), 'placid-cli-bench-'));
  const env = {
    ...process.env,
    NODE_COMPILE_CACHE: join(dir, 'compile-cache'),
    NODE_DISABLE_COMPILE_CACHE: '',
  };
  try {
    const request = join(dir, 'request.json');
    writeFileSync(request, JSON.stringify(REQUEST));
    const help = compare(['bin/placid.cjs', '--help'], ['-e', '0'], env);
    const out: Record<string, unknown> = { help };
    for (const shape of Object.keys(SHAPES) as Shape[]) {
      const hosts = join(dir, `hosts-${shape}.json`);
      writeFileSync(hosts, JSON.stringify(hostInputs(HOSTS, shape)));
      const bareParse = `const fs=require('fs');JSON.parse(fs.readFileSync(${JSON.stringify(hosts)},'utf8'));JSON.parse(fs.readFileSync(${JSON.stringify(request)},'utf8'))`;
      const placid = ['bin/placid.cjs', 'schedule', '--hosts', hosts, '--request', request, '--json'];
      const schedule = {
        ...compare(placid, ['-e', bareParse], env),
        ...(await instructions(placid, ['-e', bareParse], env)),
      };
      process.stdout.write(`cli schedule --json ${HOSTS} ${shape} hosts ${JSON.stringify(schedule)}\n`);
      out[`schedule_json_${HOSTS}_${shape}_hosts`] = schedule;
    }
    process.stdout.write(`cli --help ${JSON.stringify(help)}\n`);
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `npm run bench cli`: the placement section as last recorded, with only its `cli` part measured anew. */
export async function benchCliInPlacement(): Promise<Record<string, unknown>> {
  const placement = (readSection('placement') ?? {}) as Record<string, unknown>;
  return { ...placement, cli: await benchCliStart() };
}

/**
 * Medians of `node ...placid` (its compile cache written), `node ...bare` and placid's first run
 * (an empty cache folder each time: it compiles and writes the cache, as after an install or an
 * upgrade), run in turn; each ratio is the median of the runs' ratios to the bare run beside them.
 */
function compare(placid: string[], bare: string[], env: NodeJS.ProcessEnv) {
  const p = { cpu: [] as number[], wall: [] as number[] };
  const b = { cpu: [] as number[], wall: [] as number[] };
  const first = { cpu: [] as number[], wall: [] as number[] };
  const cache = env.NODE_COMPILE_CACHE as string;
  time(placid, { cpu: [], wall: [] }, env);
  for (let i = 0; i < RUNS; i++) {
    time(placid, p, env);
    time(bare, b, env);
    const empty = `${cache}-first-${i}`;
    time(placid, first, { ...env, NODE_COMPILE_CACHE: empty });
    rmSync(empty, { recursive: true, force: true });
  }
  const ratio = (xs: number[], ys: number[]) => {
    const each = xs.map((x, i) => x / ys[i]).sort((x, y) => x - y);
    return round(percentile(each, 50), 2);
  };
  return {
    placid_cpu_ms: median(p.cpu),
    bare_node_cpu_ms: median(b.cpu),
    cpu_ratio: ratio(p.cpu, b.cpu),
    placid_wall_ms: median(p.wall),
    bare_node_wall_ms: median(b.wall),
    wall_ratio: ratio(p.wall, b.wall),
    first_run_cpu_ms: median(first.cpu),
    first_run_cpu_ratio: ratio(first.cpu, b.cpu),
    first_run_wall_ratio: ratio(first.wall, b.wall),
  };
}

/**
 * Instructions each command executes (valgrind's cachegrind, node --predictable: one thread, so
 * the count repeats to 0.1% where CPU time drifts 10–30%): the work done, not the time it takes.
 * Page faults (the kernel's) and memory stalls are not in it. Skipped without valgrind.
 */
async function instructions(
  placid: string[],
  bare: string[],
  env: NodeJS.ProcessEnv,
): Promise<Record<string, number>> {
  if (spawnSync('valgrind', ['--version']).status !== 0) return {};
  // --predictable changes V8's flags, so its runs keep a compile cache of their own: write it first.
  spawnSync('node', ['--predictable', ...placid], { env, stdio: 'ignore' });
  const count = (args: string[]) =>
    new Promise<number>((resolve, reject) => {
      const child = spawn(
        'valgrind',
        [
          '--tool=cachegrind',
          '--cache-sim=no',
          '--cachegrind-out-file=/dev/null',
          'node',
          '--predictable',
          ...args,
        ],
        { stdio: ['ignore', 'ignore', 'pipe'], env },
      );
      let err = '';
      child.stderr.on('data', (d) => {
        err += d;
      });
      child.on('close', () => {
        const refs = /I\s+refs:\s+([\d,]+)/.exec(err)?.[1];
        if (refs) resolve(Number(refs.replaceAll(',', '')));
        else reject(new Error(`valgrind node ${args.join(' ')}: ${err.slice(-500)}`));
      });
    });
  // The two at once: each is one thread, and this machine has two cores.
  const [p, b] = await Promise.all([count(placid), count(bare)]);
  return {
    placid_instructions_g: round(p / 1e9, 3),
    bare_node_instructions_g: round(b / 1e9, 3),
    instructions_ratio: round(p / b, 2),
  };
}

function time(args: string[], into: { cpu: number[]; wall: number[] }, env: NodeJS.ProcessEnv): void {
  const t0 = performance.now();
  // bash's `time` reports the child's rusage; its line is the last of stderr.
  const r = spawnSync('bash', ['-c', 'TIMEFORMAT="%3U %3S"; time node "$@"', 'bash', ...args], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
    env,
  });
  into.wall.push(performance.now() - t0);
  const last = r.stderr.trim().split('\n').pop() ?? '';
  const [user, sys] = last.split(' ').map(Number);
  if (r.status !== 0 && r.status !== 1) throw new Error(`node ${args.join(' ')} failed: ${r.stderr}`);
  into.cpu.push(Math.round((user + sys) * 1000));
}

const REQUEST = {
  flavor: {
    name: 'm1.large',
    vcpus: 4,
    memory_mb: 8192,
    root_gb: 40,
    extra_specs: { 'aggregate_instance_extra_specs:storage': 'ssd' },
  },
  image: { id: 'img-1', properties: { hw_architecture: 'x86_64' } },
  availability_zone: 'az2',
};

type Shape = keyof typeof SHAPES;

/** The placement bench's fleet as HOSTS.json input: 3 zones, 2 storage classes, varied usage. */
function hostInputs(n: number, shape: Shape): object[] {
  const zones = ['az1', 'az2', 'az3'];
  let seed = 42;
  const rnd = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  return Array.from({ length: n }, (_, i) => {
    const az = zones[i % 3];
    const ssd = i % 2 === 0;
    const host = {
      host: `cmp-${i}`,
      free_ram_mb: 262144 - Math.floor(rnd() * 200000) - 512,
      total_usable_ram_mb: 262144,
      total_usable_disk_gb: 2000,
      free_disk_mb: Math.floor((2000 - rnd() * 1500) * 1024),
      vcpus_total: 64,
      vcpus_used: Math.floor(rnd() * 200),
      cpu_allocation_ratio: 4,
      num_instances: Math.floor(rnd() * 40),
      hypervisor_type: 'QEMU',
      hypervisor_version: 8002000,
      supported_instances: [['x86_64', 'kvm', 'hvm']],
      service: { disabled: i % 97 === 0, up: true },
      aggregates: [
        { name: `zone-${az}`, metadata: { availability_zone: az } },
        { name: ssd ? 'ssd' : 'hdd', metadata: { storage: ssd ? 'ssd' : 'hdd' } },
      ],
    };
    return { ...host, ...SHAPES[shape](i, rnd) };
  });
}

/** Nova's libvirt compute monitor (`compute_monitors = cpu.virt_driver`): its ten CPU metrics. */
const CPU_METRICS = [
  'frequency',
  'user.time',
  'kernel.time',
  'idle.time',
  'iowait.time',
  'user.percent',
  'kernel.percent',
  'idle.percent',
  'iowait.percent',
  'percent',
];

/** What each shape adds to a plain host. */
const SHAPES = {
  plain: () => ({}),
  metrics: (_i: number, rnd: () => number) => ({
    metrics: CPU_METRICS.map((m) => ({
      name: `cpu.${m}`,
      value: m === 'frequency' ? 2400 : Math.round(rnd() * 10000) / 100,
      source: 'libvirt.LibvirtDriver',
      timestamp: '2026-12-01T12:10:00.000000',
    })),
  }),
  // Two sockets of 16 cores with hyper-threads: half the threads shared, half dedicated (pinnable),
  // 4 KiB, 2 MiB and 1 GiB pages; an SR-IOV NIC's VFs and, on every fourth host, a GPU.
  numa: (i: number, rnd: () => number) => ({
    numa_topology: { cells: [0, 1].map((cell) => numaCell(cell, rnd)) },
    pci_stats: {
      pools: [
        {
          vendor_id: '8086',
          product_id: '154d',
          count: 4,
          numa_node: 0,
          physical_network: 'physnet1',
          dev_type: 'type-VF',
          tags: { dev_type: 'type-VF', physical_network: 'physnet1' },
        },
        {
          vendor_id: '10de',
          product_id: '1eb8',
          count: i % 4 === 0 ? 1 : 0,
          numa_node: 1,
          dev_type: 'type-PCI',
          tags: { dev_type: 'type-PCI' },
        },
      ],
    },
    traits: ['HW_CPU_X86_AVX2', 'COMPUTE_NET_VIF_MODEL_VIRTIO'],
    inventories: {
      PCPU: { total: 32, used: 4, reserved: 0, allocation_ratio: 1, min_unit: 1, max_unit: 32, step_size: 1 },
    },
  }),
};

function numaCell(cell: number, rnd: () => number) {
  const cpus = Array.from({ length: 32 }, (_, k) => cell * 32 + k);
  return {
    id: cell,
    socket: cell,
    cpuset: cpus.slice(0, 16),
    pcpuset: cpus.slice(16),
    memory: 131072,
    cpu_usage: Math.floor(rnd() * 64),
    memory_usage: Math.floor(rnd() * 100000),
    pinned_cpus: cpus.slice(16, 16 + Math.floor(rnd() * 8)),
    siblings: Array.from({ length: 16 }, (_, k) => [cell * 32 + k, cell * 32 + k + 16]),
    mempages: [
      { size_kb: 4, total: 25165824, used: 0, reserved: 0 },
      { size_kb: 2048, total: 8192, used: Math.floor(rnd() * 4000), reserved: 0 },
      { size_kb: 1048576, total: 16, used: Math.floor(rnd() * 8), reserved: 0 },
    ],
  };
}
