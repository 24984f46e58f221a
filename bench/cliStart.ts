/**
 * The `placid` CLI against a bare node doing the least the same job needs: `placid --help` against
 * `node -e 0`, and `placid schedule --json` over 20k hosts against a node that reads and parses
 * the same two files. CPU time (user + system) of each child, from bash's `time` (to the
 * millisecond; /usr/bin/time rounds to 10 ms, a twelfth of the bare parse), median of RUNS;
 * wall time is reported too but moves with the machine's load.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median, readSection, round } from './stats.js';

// Odd, so the median is a run; 7 because the machine these run on is shared and noisy.
const RUNS = 7;
const HOSTS = 20_000;

export async function benchCliStart(): Promise<Record<string, unknown>> {
  const build = spawnSync('node', ['scripts/build-cli.mjs'], { stdio: 'inherit' });
  if (build.status !== 0) throw new Error('npm run build failed');
  const dir = mkdtempSync(join(tmpdir(), 'placid-cli-bench-'));
  try {
    const hosts = join(dir, 'hosts.json');
    const request = join(dir, 'request.json');
    writeFileSync(hosts, JSON.stringify(hostInputs(HOSTS)));
    writeFileSync(request, JSON.stringify(REQUEST));
    const bareParse = `const fs=require('fs');JSON.parse(fs.readFileSync(${JSON.stringify(hosts)},'utf8'));JSON.parse(fs.readFileSync(${JSON.stringify(request)},'utf8'))`;
    const help = compare(['bin/placid.mjs', '--help'], ['-e', '0']);
    const schedule = compare(
      ['bin/placid.mjs', 'schedule', '--hosts', hosts, '--request', request, '--json'],
      ['-e', bareParse],
    );
    process.stdout.write(
      `cli --help ${JSON.stringify(help)}\ncli schedule --json ${HOSTS} hosts ${JSON.stringify(schedule)}\n`,
    );
    return { help, [`schedule_json_${HOSTS}_hosts`]: schedule };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `npm run bench cli`: the placement section as last recorded, with only its `cli` part measured anew. */
export async function benchCliInPlacement(): Promise<Record<string, unknown>> {
  const placement = (readSection('placement') ?? {}) as Record<string, unknown>;
  return { ...placement, cli: await benchCliStart() };
}

/** Median CPU and wall ms of `node ...placid` and `node ...bare`, run alternately. */
function compare(placid: string[], bare: string[]) {
  const p = { cpu: [] as number[], wall: [] as number[] };
  const b = { cpu: [] as number[], wall: [] as number[] };
  for (let i = 0; i < RUNS; i++) {
    time(placid, p);
    time(bare, b);
  }
  const placidCpu = median(p.cpu);
  const bareCpu = median(b.cpu);
  return {
    placid_cpu_ms: placidCpu,
    bare_node_cpu_ms: bareCpu,
    cpu_ratio: round(placidCpu / bareCpu, 2),
    placid_wall_ms: median(p.wall),
    bare_node_wall_ms: median(b.wall),
  };
}

function time(args: string[], into: { cpu: number[]; wall: number[] }): void {
  const t0 = performance.now();
  // bash's `time` reports the child's rusage; its line is the last of stderr.
  const r = spawnSync('bash', ['-c', 'TIMEFORMAT="%3U %3S"; time node "$@"', 'bash', ...args], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
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

/** The placement bench's fleet as HOSTS.json input: 3 zones, 2 storage classes, varied usage. */
function hostInputs(n: number): object[] {
  const zones = ['az1', 'az2', 'az3'];
  let seed = 42;
  const rnd = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  return Array.from({ length: n }, (_, i) => {
    const az = zones[i % 3];
    const ssd = i % 2 === 0;
    return {
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
  });
}
