/**
 * The fake cloud's inventory: compute nodes (with Nova's usage, summed from the servers on them),
 * host aggregates, server groups and each node's Placement data (traits, allocation ratios,
 * reserved amounts). Servers themselves live in FakeCloudState.
 */
import { randomUUID } from 'node:crypto';
import type { FakeServer } from './state.js';

export interface FakeHypervisorInput {
  host: string;
  /** Default: the host name. */
  nodename?: string;
  /** The compute node (and resource provider) UUID. Default: random. */
  id?: string;
  vcpus?: number;
  memoryMb?: number;
  localGb?: number;
  hostIp?: string;
  state?: 'up' | 'down';
  status?: 'enabled' | 'disabled';
  disabledReason?: string;
  hypervisorType?: string;
  hypervisorVersion?: number;
  /** Placement: traits of the root provider. */
  traits?: string[];
  /** Placement: allocation ratios per resource class. Defaults 16 / 1.5 / 1 like Nova's initial ones. */
  allocationRatios?: { VCPU?: number; MEMORY_MB?: number; DISK_GB?: number };
  reservedMemoryMb?: number;
}

export type FakeHypervisor = Required<Omit<FakeHypervisorInput, 'disabledReason' | 'allocationRatios'>> & {
  disabledReason: string | null;
  allocationRatios: { VCPU: number; MEMORY_MB: number; DISK_GB: number };
};

export interface FakeAggregate {
  id: number;
  uuid: string;
  name: string;
  availabilityZone: string | null;
  hosts: string[];
  metadata: Record<string, string>;
}

export interface FakeServerGroup {
  id: string;
  name: string;
  policy: 'affinity' | 'anti-affinity' | 'soft-affinity' | 'soft-anti-affinity';
  members: string[];
}

export interface NodeUsage {
  vcpusUsed: number;
  memoryMbUsed: number;
  localGbUsed: number;
  runningVms: number;
}

export class FakeInventoryState {
  readonly hypervisors: FakeHypervisor[] = [];
  readonly aggregates: FakeAggregate[] = [];
  readonly serverGroups: FakeServerGroup[] = [];
  /** Nova's `[api] max_limit`: no page is longer, whatever `limit` asks for. */
  maxPageSize = 1000;

  addHypervisor(input: FakeHypervisorInput): FakeHypervisor {
    const hypervisor: FakeHypervisor = {
      host: input.host,
      nodename: input.nodename ?? input.host,
      id: input.id ?? randomUUID(),
      vcpus: input.vcpus ?? 32,
      memoryMb: input.memoryMb ?? 131_072,
      localGb: input.localGb ?? 1_000,
      hostIp: input.hostIp ?? '192.0.2.1',
      state: input.state ?? 'up',
      status: input.status ?? 'enabled',
      disabledReason: input.disabledReason ?? null,
      hypervisorType: input.hypervisorType ?? 'QEMU',
      hypervisorVersion: input.hypervisorVersion ?? 8_002_002,
      traits: input.traits ?? ['COMPUTE_NET_ATTACH_INTERFACE', 'HW_CPU_X86_AVX2'],
      allocationRatios: { VCPU: 16, MEMORY_MB: 1.5, DISK_GB: 1, ...input.allocationRatios },
      reservedMemoryMb: input.reservedMemoryMb ?? 512,
    };
    this.hypervisors.push(hypervisor);
    return hypervisor;
  }

  addAggregate(input: Omit<FakeAggregate, 'id' | 'uuid'> & { uuid?: string }): FakeAggregate {
    const aggregate = { id: this.aggregates.length + 1, uuid: input.uuid ?? randomUUID(), ...input };
    this.aggregates.push(aggregate);
    return aggregate;
  }

  addServerGroup(input: Omit<FakeServerGroup, 'id'> & { id?: string }): FakeServerGroup {
    const group = { ...input, id: input.id ?? randomUUID() };
    this.serverGroups.push(group);
    return group;
  }

  /** What Nova's resource tracker would count on the node: the servers on it, plus the host's reserve. */
  usage(hypervisor: FakeHypervisor, servers: Iterable<FakeServer>): NodeUsage {
    const usage = { vcpusUsed: 0, memoryMbUsed: hypervisor.reservedMemoryMb, localGbUsed: 0, runningVms: 0 };
    for (const s of servers) {
      if (s.host !== hypervisor.host || s.hypervisorHostname !== hypervisor.nodename) continue;
      usage.vcpusUsed += s.flavor.vcpus;
      usage.memoryMbUsed += s.flavor.ram;
      usage.localGbUsed += s.bootFromVolume ? 0 : s.flavor.disk + s.flavor.ephemeral;
      usage.runningVms += 1;
    }
    return usage;
  }
}
