/**
 * What an agent believes about a VM's Kubernetes node and Consul agent (its config's `trust:`;
 * docs/trust-model.md). By default only what a tenant cannot write: the clusters' own node records
 * and the Consul catalog, searched within these allowlists. `server_metadata` also believes the
 * report's `kubernetes_node`/`kubernetes_cluster`/`consul`, which come from server metadata any
 * member of the VM's project can set: a tenant could then aim a drain at another node.
 */
import * as z from 'zod';
import { regexText } from '../model/schema.js';

export const trustPolicySchema = z.strictObject({
  kubernetes: z
    .strictObject({
      /** Clusters (names in the kubernetes secret) searched for the VM's node; []: the default one. */
      clusters: z.array(z.string().min(1)).default([]),
      /** A node Placid drains must fully match one of these; []: any name. */
      node_names: z.array(regexText).default([]),
    })
    .default({ clusters: [], node_names: [] }),
  consul: z
    .strictObject({
      /** Datacenters whose catalog is searched for the VM's node; []: the catalog agent's own. */
      datacenters: z.array(z.string().min(1)).default([]),
    })
    .default({ datacenters: [] }),
  /** Believe the tenant-writable hints of the report instead of looking up. Risky: see above. */
  server_metadata: z.boolean().default(false),
});

export type TrustPolicy = z.output<typeof trustPolicySchema>;

export const DEFAULT_TRUST: TrustPolicy = trustPolicySchema.parse({});
