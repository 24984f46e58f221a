/**
 * How series find their VM or host: an ordered list of rules per kind, each "take label L (minus
 * a :port suffix, or the first group of `regex`) and look it up as the VM's uuid / name / address,
 * or the host's name / nodename / IP". The first rule that finds something wins.
 */
import * as z from 'zod';
import { regexText } from '../model/schema.js';
import type { EntityKind } from './queries.js';

export const VM_KEYS = ['uuid', 'name', 'address'] as const;
export const HOST_KEYS = ['host', 'nodename', 'host_ip'] as const;

export type VmKey = (typeof VM_KEYS)[number];
export type HostKey = (typeof HOST_KEYS)[number];

export interface MappingRule<K extends string = string> {
  label: string;
  match: K;
  regex?: string;
}

export function mappingRule<K extends EntityKind>(kind: K) {
  const keys = kind === 'vm' ? VM_KEYS : HOST_KEYS;
  return z.strictObject({
    label: z.string().regex(/^[a-zA-Z_][a-zA-Z0-9_]*$/, 'must be a Prometheus label name'),
    match: z.enum(keys as readonly string[] as [string, ...string[]]),
    regex: regexText.optional(),
  });
}

export const MAPPING_DEFAULTS: { vm: MappingRule<VmKey>[]; host: MappingRule<HostKey>[] } = {
  vm: [
    { label: 'uuid', match: 'uuid' },
    { label: 'instance_id', match: 'uuid' },
    { label: 'instance', match: 'address' },
    { label: 'instance', match: 'name' },
  ],
  host: [
    { label: 'instance', match: 'host' },
    { label: 'instance', match: 'nodename' },
    { label: 'instance', match: 'host_ip' },
  ],
};
