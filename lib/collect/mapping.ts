/**
 * Finds the VM or compute node a series belongs to, by the configured label rules (mappingConfig.ts).
 * A value that names two VMs (Nova names are not unique) maps to neither: guessing would put one
 * VM's steal on another. Host rules resolve to a compute node; `host` matches only when the host
 * has a single node.
 */
import type { HostKey, MappingRule, VmKey } from './mappingConfig.js';
import type { InventoryHost, InventoryServer } from './ports.js';
import type { EntityKind } from './queries.js';

export type Resolution =
  | { outcome: 'mapped'; id: string }
  | { outcome: 'ambiguous'; label: string; value: string }
  | { outcome: 'unmapped' };

type Lookup = Map<string, Set<string>>;

export class SeriesMapper {
  private readonly vm: Record<VmKey, Lookup>;
  private readonly host: Record<HostKey, Lookup>;
  private readonly compiled = new Map<string, RegExp>();

  constructor(
    servers: readonly InventoryServer[],
    hosts: readonly InventoryHost[],
    private readonly rules: { vm: readonly MappingRule[]; host: readonly MappingRule[] },
  ) {
    this.vm = { uuid: new Map(), name: new Map(), address: new Map() };
    for (const s of servers) {
      add(this.vm.uuid, s.id, s.id);
      add(this.vm.name, s.name, s.id);
      for (const a of s.addresses) add(this.vm.address, a, s.id);
    }
    this.host = { host: new Map(), nodename: new Map(), host_ip: new Map() };
    for (const h of hosts) {
      add(this.host.host, h.host, h.id);
      add(this.host.nodename, h.nodename, h.id);
      if (h.hostIp) add(this.host.host_ip, h.hostIp, h.id);
    }
  }

  /** The entity of `kind` these labels name, trying each rule in order. */
  resolve(kind: EntityKind, labels: Readonly<Record<string, string>>): Resolution {
    const lookups = (kind === 'vm' ? this.vm : this.host) as Record<string, Lookup>;
    for (const rule of this.rules[kind]) {
      const raw = labels[rule.label];
      if (raw === undefined) continue;
      const value = this.extract(raw, rule.regex);
      if (value === undefined) continue;
      const ids = lookups[rule.match]?.get(value);
      if (!ids || ids.size === 0) continue;
      if (ids.size > 1) return { outcome: 'ambiguous', label: rule.label, value };
      return { outcome: 'mapped', id: [...ids][0] };
    }
    return { outcome: 'unmapped' };
  }

  private extract(raw: string, regex: string | undefined): string | undefined {
    if (regex === undefined) return withoutPort(raw);
    let compiled = this.compiled.get(regex);
    if (!compiled) {
      compiled = new RegExp(regex);
      this.compiled.set(regex, compiled);
    }
    const match = compiled.exec(raw);
    if (!match) return undefined;
    return match[1] ?? match[0];
  }
}

/** `10.0.0.5:9100` → `10.0.0.5`, `[fd00::5]:9100` → `fd00::5`, `vm-a` → `vm-a`. */
export function withoutPort(value: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(value);
  if (bracketed) return bracketed[1];
  const hostPort = /^([^:]+):\d+$/.exec(value);
  return hostPort ? hostPort[1] : value;
}

function add(lookup: Lookup, key: string, id: string): void {
  if (key === '') return;
  const ids = lookup.get(key);
  if (ids) ids.add(id);
  else lookup.set(key, new Set([id]));
}
