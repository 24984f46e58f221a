/**
 * What `placid collect` must store whatever Prometheus computed the series: one table of cases,
 * run by fakePrometheus.test.ts (the fake answers exact constant series) and realPrometheus.test.ts
 * (Debian's Prometheus computes rate() over scraped counters), each with its own tolerance.
 *
 * The fleet both describe: vm-a steals 10 % of its 2 vCPUs and is 40 % busy at load 1.5, vm-b
 * steals 25 %, vm-r (on cmp-2) steals 20 % and was rebooted, cmp-1's VMs wait 30 % for a physical
 * CPU (host-side steal), cmp-2 exports none.
 */
import { expect, it } from 'vitest';
import type { CollectConfigInput } from '../../lib/collect/config.js';
import { openLocalStore } from '../../lib/local/localStore.js';
import type { StoredSample } from '../../lib/store/samples.js';
import { type CliRun, runCli } from '../cli/runCli.js';
import {
  type collectFiles,
  counterResetSamples,
  onNode,
  VM_A,
  VM_B,
  VM_R,
  VM_SILENT,
} from './cloudFixture.js';

/** How both files map the fleet's series: by a uuid label, else the instance's address or name; hosts by name. */
export const FLEET_MAPPING: CollectConfigInput['mapping'] = {
  vm: [
    { label: 'uuid', match: 'uuid' },
    { label: 'instance', match: 'address' },
    { label: 'instance', match: 'name' },
  ],
  host: [{ label: 'instance', match: 'host', regex: '^([^.:]+)' }],
};

/** `placid collect --local --json` with `files`' config, into `files`' store: the run the cases read. */
export async function collectLocal(files: ReturnType<typeof collectFiles>): Promise<CollectedRun> {
  const collect = await runCli([
    'collect',
    '--config',
    files.configPath,
    '--local',
    '--data-dir',
    files.dataDir,
    '--json',
  ]);
  return { collect, dataDir: files.dataDir };
}

/** The run the cases read: `placid collect --json`'s result and the store it wrote. */
export interface CollectedRun {
  collect: CliRun;
  dataDir: string;
}

export interface Tolerance {
  /** How far back the stored samples are read. */
  lookbackMs: number;
  /** Decimal digits a steady value must match (toBeCloseTo). */
  digits: number;
  /**
   * The samples that must be steady: every one (exact series), or the latest (a real rate() reads
   * low over a young series' first steps).
   */
  steady: 'all' | 'latest';
  /**
   * The range vm-r's steady steal must lie in once the rate window has left its reboot: exactly
   * 20 % from exact series; a real rate just after the reboot may read lower.
   */
  afterReset: [min: number, max: number];
}

/** Registers the shared cases; `run` is read inside each test (the file's beforeAll fills it). */
export function collectCases(run: () => CollectedRun, tolerance: Tolerance): void {
  const { digits, lookbackMs } = tolerance;
  const summary = () => JSON.parse(run().collect.stdout);
  const steady = (samples: StoredSample[]) => (tolerance.steady === 'all' ? samples : samples.slice(-1));
  const samplesOf = async (uuid: string, host: string) => {
    const local = await openLocalStore({ dataDir: run().dataDir });
    try {
      const now = new Date();
      return await local.store.samplesFor(onNode(uuid, host), new Date(now.getTime() - lookbackMs), now);
    } finally {
      await local.close();
    }
  };

  it('completes and sends a report per host and per placed VM', () => {
    const s = summary();
    expect([run().collect.status, s.hosts, s.vms, s.complete]).toEqual([0, 2, 4, true]);
    expect(s.messages.sent).toBe(s.messages.built);
  });

  it('reports the series that map to nothing and the VMs with no series', () => {
    const s = summary();
    expect(s.mapping.unmapped.map((u: { labels: string }) => u.labels)).toContain(
      '{instance="stray:9100",job="fleet"}',
    );
    expect(s.vms_without_series).toEqual([`win-1 (${VM_SILENT})`]);
    expect(s.skipped_servers.without_host).toBe(1);
  });

  it("stores each VM's steal in percent of its vCPUs, with its CPU use and load", async () => {
    const [a, b] = [await samplesOf(VM_A, 'cmp-1'), await samplesOf(VM_B, 'cmp-1')];
    expect([a.length > 0, b.length > 0]).toEqual([true, true]);
    expect(steady(a).map((x) => [x.steal_percent, x.cpu_percent, x.load5])).toEqual(
      steady(a).map(() => [expect.closeTo(10, digits), expect.closeTo(40, digits), 1.5]),
    );
    expect(steady(b).map((x) => x.steal_percent)).toEqual(steady(b).map(() => expect.closeTo(25, digits)));
    // No step reads more steal than there was, however young the series.
    const over = 10 + 10 ** -digits / 2;
    expect(a.filter((x) => x.steal_percent > over)).toEqual([]);
  });

  it('marks the steps whose rate window spans a counter reset as gaps instead of data', async () => {
    const { reset, samples } = await counterResetSamples(run().dataDir, lookbackMs);
    expect(reset).toBeDefined();
    expect(samples.length).toBeGreaterThan(0);
    expect(samples.filter((x) => x.ts >= (reset?.from ?? '') && x.ts <= (reset?.to ?? ''))).toEqual([]);
    const [min, max] = tolerance.afterReset;
    expect(steady(samples).filter((x) => x.steal_percent < min || x.steal_percent > max)).toEqual([]);
  });

  it("shows the hosts in placid fleet with host-side steal, or their VMs' steal", async () => {
    const vmR = await samplesOf(VM_R, 'cmp-2');
    const fleet = await runCli(['fleet', '--data-dir', run().dataDir, '--json']);
    const hosts = JSON.parse(fleet.stdout).zones.flatMap((z: { hosts: unknown[] }) => z.hosts);
    const byName = Object.fromEntries(hosts.map((h: { host: string }) => [h.host, h]));
    expect(Object.keys(byName).sort()).toEqual(['cmp-1', 'cmp-2']);
    expect(byName['cmp-1']).toMatchObject({ availability_zone: 'az1', vms: 2, steal: { source: 'host' } });
    expect(byName['cmp-1'].steal.now).toBeCloseTo(30, digits);
    // cmp-2 exports no host-side steal: the view falls back to its VMs, i.e. vm-r's latest sample.
    expect(byName['cmp-2'].steal).toMatchObject({ source: 'vms', now: vmR[vmR.length - 1].steal_percent });
    const [min, max] = tolerance.afterReset;
    expect(byName['cmp-2'].steal.now).toBeGreaterThanOrEqual(min);
    expect(byName['cmp-2'].steal.now).toBeLessThanOrEqual(max);
  });
}
