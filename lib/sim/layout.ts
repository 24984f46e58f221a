/**
 * The simulated fleet as it starts: hosts spread over the zones, and VMs of each kind of service
 * grouped into applications (`web-03`: the Placid role) whose replicas are spread over zones and
 * hosts the way a spreading scheduler would (at most `max_same_role_per_host` per host where
 * possible), each with a flavor, a typical CPU use, local or shared disk, and Kubernetes and Consul
 * membership. Seeded: the same scenario always gives the same fleet.
 */
import { ValidationError } from '../model/errors.js';
import { gaussian, type Random, shuffled, stream, weighted } from './random.js';
import type { Scenario } from './scenario.js';
import type { FlavorSpec, RoleSpec } from './scenarioSchema.js';

export interface SimHost {
  index: number;
  name: string;
  zone: string;
  vcpus: number;
  /** Usable RAM (total minus reserved) in MiB. */
  ramMb: number;
  diskGb: number;
}

export interface SimVm {
  index: number;
  uuid: string;
  name: string;
  /** The kind of service (a key of the scenario's `roles`). */
  kind: string;
  /** The application: the role Placid reads (`web-03`). */
  role: string;
  flavor: FlavorSpec;
  zone: string;
  host: number;
  localDisk: boolean;
  kubernetesNode: string | null;
  consul: { node: string; address: string } | null;
  /** Its CPU use at load level 1, as a share of its vCPUs. */
  utilisation: number;
}

export interface Layout {
  hosts: SimHost[];
  vms: SimVm[];
}

interface Draft {
  kind: RoleSpec;
  flavor: FlavorSpec;
  role: string;
  replica: number;
  appIndex: number;
  localDisk: boolean;
}

export function buildLayout(scenario: Scenario): Layout {
  const random = stream(scenario.seed, 'layout');
  const spec = scenario.host;
  const hosts: SimHost[] = scenario.hostNames.map((name, index) => ({
    index,
    name,
    zone: scenario.zones[index % scenario.zones.length],
    vcpus: spec.vcpus,
    ramMb: spec.ram_gb * 1024 - spec.reserved_ram_mb,
    diskGb: spec.disk_gb,
  }));
  const drafts = draftVms(scenario, random);
  const placed = place(drafts, hosts, scenario, random);
  const vms = placed.map(({ draft, host }, index): SimVm => {
    const name = `${draft.role}-${draft.replica + 1}`;
    const zoneIndex = scenario.zones.indexOf(hosts[host].zone);
    return {
      index,
      uuid: uuidFor(scenario.seed, index),
      name,
      kind: draft.kind.name,
      role: draft.role,
      flavor: draft.flavor,
      zone: hosts[host].zone,
      host,
      localDisk: draft.localDisk,
      kubernetesNode: random() < draft.kind.kubernetes_share ? `k8s-${name}` : null,
      consul:
        random() < draft.kind.consul_share
          ? { node: name, address: `10.${zoneIndex + 1}.${Math.floor(index / 250)}.${(index % 250) + 2}` }
          : null,
      // Log-normal around the kind's mean: most VMs near it, a few running hot.
      utilisation: Math.min(
        0.98,
        Math.max(0.03, draft.kind.utilisation * Math.exp(0.6 * gaussian(random) - 0.18)),
      ),
    };
  });
  return { hosts, vms };
}

/** Each VM's kind and flavor, numbered into applications of `replicas` VMs. */
function draftVms(scenario: Scenario, random: Random): Draft[] {
  const counts = new Map<string, number>();
  const drafts: Draft[] = [];
  let apps = 0;
  const appIndex = new Map<string, number>();
  for (let i = 0; i < scenario.vms; i++) {
    const kind = weighted(random, scenario.roles, (r) => r.weight);
    const k = counts.get(kind.name) ?? 0;
    counts.set(kind.name, k + 1);
    const app = Math.floor(k / kind.replicas) + 1;
    const role = `${kind.name}-${String(app).padStart(2, '0')}`;
    if (!appIndex.has(role)) appIndex.set(role, apps++);
    const flavor = scenario.flavors.get(kind.flavors[Math.floor(random() * kind.flavors.length)])!;
    const localDisk = random() < kind.local_disk_share;
    drafts.push({ kind, flavor, role, replica: k % kind.replicas, appIndex: appIndex.get(role)!, localDisk });
  }
  return drafts;
}

/**
 * Biggest VMs first; each replica in its application's next zone, on a random host there with room
 * and, preferably, fewer replicas of the application than the role limit.
 */
function place(drafts: Draft[], hosts: SimHost[], scenario: Scenario, random: Random) {
  const spec = scenario.host;
  const used = hosts.map(() => ({ vcpus: 0, ramMb: 0, diskGb: 0, roles: new Map<string, number>() }));
  const byZone = new Map<string, SimHost[]>();
  for (const h of hosts) byZone.set(h.zone, [...(byZone.get(h.zone) ?? []), h]);
  const order = drafts
    .map((_d, i) => i)
    .sort((a, b) => drafts[b].flavor.ram_mb - drafts[a].flavor.ram_mb || a - b);
  const hostOf = new Array<number>(drafts.length);
  const limit = scenario.rebalance.max_same_role_per_host;
  for (const i of order) {
    const d = drafts[i];
    const zone = scenario.zones[(d.appIndex + d.replica) % scenario.zones.length];
    const disk = d.localDisk ? d.flavor.disk_gb : 0;
    const fits = (h: SimHost) =>
      used[h.index].ramMb + d.flavor.ram_mb <= h.ramMb * spec.ram_allocation_ratio &&
      used[h.index].vcpus + d.flavor.vcpus <= h.vcpus * spec.cpu_allocation_ratio &&
      used[h.index].diskGb + disk <= h.diskGb * spec.disk_allocation_ratio;
    const room = shuffled(random, byZone.get(zone) ?? []).filter(fits);
    const spread = room.filter((h) => (used[h.index].roles.get(d.role) ?? 0) < limit);
    const pool = spread.length > 0 ? spread : room;
    if (pool.length === 0) {
      throw new ValidationError(scenario.source, [
        {
          path: 'vms',
          message: `${scenario.vms} VMs do not fit on ${hosts.length} hosts of ${spec.ram_gb} GB RAM and ${spec.vcpus} vCPUs (zone ${zone} is full); add hosts or fewer VMs`,
        },
      ]);
    }
    // Lightly loaded hosts are likelier, as a weigher would prefer them, but not always chosen.
    const host = weighted(random, pool, (h) => 1 + h.ramMb - used[h.index].ramMb);
    const u = used[host.index];
    u.ramMb += d.flavor.ram_mb;
    u.vcpus += d.flavor.vcpus;
    u.diskGb += disk;
    u.roles.set(d.role, (u.roles.get(d.role) ?? 0) + 1);
    hostOf[i] = host.index;
  }
  // Back in draft order, so VM numbering does not depend on the packing order.
  return drafts.map((draft, i) => ({ draft, host: hostOf[i] }));
}

/** A stable, UUID-shaped id per VM and seed. */
function uuidFor(seed: number, index: number): string {
  const a = stream(seed, `uuid/${index}`);
  const hex = Array.from({ length: 32 }, () => Math.floor(a() * 16).toString(16)).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20)}`;
}
