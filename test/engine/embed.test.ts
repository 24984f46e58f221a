import { describe, expect, it } from 'vitest';
import { PASS, reject } from '../../lib/engine/filter.js';
import { ConfigError, createScheduler, defineFilter, ValidationError } from '../../lib/engine/index.js';
import { withPlacidFilters } from '../../lib/rebalance/filters/index.js';

const BIG = reject(() => 'the host is big');

const HOSTS = [
  { host: 'small', free_ram_mb: 2048, total_usable_ram_mb: 4096, vcpus_total: 4, total_usable_disk_gb: 100 },
  { host: 'big', free_ram_mb: 60000, total_usable_ram_mb: 65536, vcpus_total: 32, total_usable_disk_gb: 400 },
  { host: 'full', free_ram_mb: 0, total_usable_ram_mb: 4096, vcpus_total: 4, total_usable_disk_gb: 100 },
];
const REQUEST = { flavor: { name: 'm1', vcpus: 2, memory_mb: 1024, root_gb: 10 } };

describe('createScheduler (embedding API)', () => {
  it('fails a decision whose plug-in writes host.limits, as a Nova filter would, naming the filter and host', async () => {
    // Prepare
    const LimitWriter = defineFilter<null>({
      name: 'LimitWriter',
      prepare: () => null,
      check: (host) => {
        host.limits.memory_mb = 1;
        return PASS;
      },
    });
    const scheduler = createScheduler(
      { filter_scheduler: { enabled_filters: ['LimitWriter'] } },
      { filters: [LimitWriter] },
    );
    // Act
    const decision = scheduler.schedule(HOSTS, REQUEST);
    // Assess
    await expect(decision).rejects.toThrow(/^LimitWriter: failed on host \w+: Cannot add property memory_mb/);
  });

  it('places a plain JSON request on plain JSON hosts and explains it like placid schedule --json', async () => {
    // Prepare
    const scheduler = createScheduler({ filter_scheduler: { host_subset_size: 1 } });
    // Act
    const decision = await scheduler.schedule(HOSTS, REQUEST);
    // Assess
    expect(decision.selected).toEqual([{ host: 'big', nodename: 'big' }]);
    expect(decision.weighed.map((w) => w.host)).toEqual(['big', 'small']);
    expect(decision.eliminated).toEqual([
      expect.objectContaining({ host: 'full', filter: 'Placement:MEMORY_MB' }),
    ]);
    expect(decision.error).toBeUndefined();
  });

  it('reuses a prepared fleet across decisions and leaves out explanations when asked', async () => {
    // Prepare
    const scheduler = createScheduler({});
    const fleet = scheduler.prepare(HOSTS);
    // Act
    const first = await scheduler.schedule(fleet, REQUEST, { explain: false });
    const second = await scheduler.schedule(fleet, { ...REQUEST, flavor: { ...REQUEST.flavor, vcpus: 64 } });
    // Assess
    expect(first.selected).toEqual([{ host: 'big', nodename: 'big' }]);
    expect(first.weighed).toEqual([]);
    expect(first.eliminated).toEqual([]);
    expect(second.error?.type).toBe('NoValidHost');
    expect(fleet.hosts).toHaveLength(3);
  });

  it("resolves Placid's own filters only when given them (they live above the engine)", async () => {
    // Prepare
    const config = { filter_scheduler: { enabled_filters: ['ComputeFilter', 'ComputeVariantFilter'] } };
    // Act
    const decision = await createScheduler(config, withPlacidFilters()).schedule(HOSTS, REQUEST);
    // Assess
    expect(decision.selected).toEqual([{ host: 'big', nodename: 'big' }]);
    expect(() => createScheduler(config)).toThrow(ConfigError);
    expect(() => createScheduler(config)).toThrow('unknown filter ComputeVariantFilter');
  });

  it('runs plug-in filters given as objects', async () => {
    // Prepare
    const NotBig = defineFilter({ name: 'NotBig', check: (h) => (h.host !== 'big' ? PASS : BIG) });
    const scheduler = createScheduler(
      { filter_scheduler: { enabled_filters: ['NotBig'] } },
      { filters: [NotBig] },
    );
    // Act
    const decision = await scheduler.schedule(HOSTS, REQUEST);
    // Assess
    expect(decision.selected).toEqual([{ host: 'small', nodename: 'small' }]);
    expect(decision.eliminated.map((e) => [e.host, e.filter])).toContainEqual(['big', 'NotBig']);
  });

  it('names the field of a bad host, request or config', async () => {
    const scheduler = createScheduler({});
    expect(() => scheduler.prepare([{ host: 'a', vcpus_total: -1 }])).toThrow(ValidationError);
    expect(() => scheduler.prepare([{ host: 'a', vcpus_total: -1 }])).toThrow(/vcpus_total/);
    await expect(scheduler.schedule(HOSTS, { flavor: { vcpus: 'two' } })).rejects.toThrow(/flavor/);
    expect(() => createScheduler({ filter_scheduler: { host_subset_size: 'x' } })).toThrow(ConfigError);
    expect(() => createScheduler([])).toThrow(/option groups/);
  });
});
