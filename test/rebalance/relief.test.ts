import { describe, expect, it } from 'vitest';
import { localDiskMb, withInstanceAdded, withInstanceRemoved } from '../../lib/rebalance/hostUsage.js';
import { neededRelief } from '../../lib/rebalance/relief.js';
import { makeConfig, makeHost, makeSpec } from '../helpers/factories.js';

describe('neededRelief', () => {
  it.each([
    ['the demand above what keeps steal at the host threshold', [10], 20 - 16 / 0.95],
    ['more when a victim needs a lower steal than the threshold', [2], 20 - 16 / 0.98],
    ['all the excess when a victim needs no steal at all', [-3], 4],
  ])('asks for %s', (_case, targets, expected) => {
    // Act
    const need = neededRelief({ capacityVcpus: 16, demandVcpus: 20 }, targets, 5);
    // Assess: plus a small margin so the predicted steal ends strictly below the target.
    expect(need).toBeCloseTo(expected + 1e-3, 9);
  });

  it.each([
    ['the host already is below every target', { capacityVcpus: 16, demandVcpus: 16 }, [5]],
    ['no VM stays to recover', { capacityVcpus: 16, demandVcpus: 20 }, []],
    ['the host load is unknown', undefined, [5]],
  ])('asks for nothing when %s', (_case, load, targets) => {
    // Act
    const need = neededRelief(load, targets, 5);
    // Assess
    expect(need).toBe(0);
  });
});

describe('hostUsage', () => {
  const vm = {
    uuid: 'vm-1',
    flavor: { vcpus: 2, memory_mb: 4096, root_gb: 20, ephemeral_gb: 10 },
    shared_storage: false,
  };
  const hostWith = (instances: string[]) =>
    makeHost({ free_ram_mb: 10_000, free_disk_mb: 100_000, disk_mb_used: 50_000, vcpus_used: 4, instances });
  const host = hostWith(['other']);

  it('takes RAM, vCPUs and local disk on the destination, and lists the VM there', () => {
    // Act
    const after = withInstanceAdded(
      host,
      vm,
      makeSpec({ flavor: { name: 'f', ...vm.flavor } }),
      makeConfig(),
    );
    // Assess
    expect(after).toMatchObject({
      free_ram_mb: 5904,
      vcpus_used: 6,
      free_disk_mb: 100_000 - 30_720,
      disk_mb_used: 80_720,
    });
    expect(Object.keys(after.instances).sort()).toEqual(['other', 'vm-1']);
    expect(host.free_ram_mb).toBe(10_000);
  });

  it('gives them back on the source and drops the VM from its instances', () => {
    // Prepare
    const source = hostWith(['other', 'vm-1']);
    // Act
    const after = withInstanceRemoved(source, vm);
    // Assess
    expect(after).toMatchObject({ free_ram_mb: 14_096, vcpus_used: 2, disk_mb_used: 50_000 - 30_720 });
    expect(Object.keys(after.instances)).toEqual(['other']);
  });

  it('counts no local disk for a VM on shared storage', () => {
    // Act
    const disk = localDiskMb({ ...vm, shared_storage: true });
    // Assess
    expect(disk).toBe(0);
  });
});
