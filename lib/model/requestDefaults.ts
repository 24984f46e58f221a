/**
 * Request specs as the schema (requestSchema.ts) hands them over, completed with RequestSpec's
 * defaults.
 */
import { randomUUID } from 'node:crypto';
import { ValidationError } from './errors.js';
import { canonicalImageProperties } from './imageMeta.js';
import { duplicateIssues } from './reportChecks.js';
import type { RequestSpecOutput } from './requestSchema.js';
import type { RequestSpec } from './requestSpec.js';

/**
 * A validated request spec document (from requestSchema.ts) with
 * RequestSpec's defaults filled in and the instance uuids checked.
 */
export function completeRequestSpec(r: RequestSpecOutput, input: unknown, source: string): RequestSpec {
  const uuids = r.instance_uuids ?? null;
  checkInstanceUuids(input, uuids, r.num_instances, source);
  return {
    // Nova's form of a request id; a counter would start again at req-1 in every process.
    request_id: r.request_id ?? `req-${randomUUID()}`,
    flavor: r.flavor,
    image: r.image
      ? {
          id: r.image.id ?? null,
          properties: canonicalImageProperties(r.image.properties, source),
          disk_format: r.image.disk_format ?? null,
        }
      : null,
    scheduler_hints: r.scheduler_hints,
    availability_zone: r.availability_zone ?? null,
    instance_group: r.instance_group ? { ...r.instance_group } : null,
    project_id: r.project_id ?? null,
    user_id: r.user_id ?? null,
    instance_uuid: r.instance_uuid ?? uuids?.[0] ?? null,
    instance_uuids: uuids,
    num_instances: uuids ? uuids.length : r.num_instances,
    ignore_hosts: r.ignore_hosts ?? [],
    force_hosts: r.force_hosts ?? [],
    force_nodes: r.force_nodes ?? [],
    requested_destination: r.requested_destination ?? null,
    numa_topology: r.numa_topology ?? null,
    pci_requests: r.pci_requests,
    is_bfv: r.is_bfv,
    instance_metadata: r.instance_metadata,
  };
}

/**
 * Each instance uuid is a claim id: a repeated uuid would place several instances under one claim
 * and undercount the host. A num_instances given beside the uuids must agree with their count
 * (Nova takes the uuids' count; a disagreement is a caller's mistake worth naming).
 */
function checkInstanceUuids(input: unknown, uuids: string[] | null, numInstances: number, source: string) {
  if (!uuids) return;
  const issues = duplicateIssues(
    uuids,
    (u) => u,
    (i) => `instance_uuids[${i}]`,
    (u) => `instance uuid ${u}`,
  );
  const explicit = (input as { num_instances?: unknown }).num_instances !== undefined;
  if (explicit && numInstances !== uuids.length) {
    issues.push({
      path: 'num_instances',
      message: `is ${numInstances} but instance_uuids lists ${uuids.length}; send one or make them agree`,
    });
  }
  if (issues.length > 0) throw new ValidationError(source, issues);
}
