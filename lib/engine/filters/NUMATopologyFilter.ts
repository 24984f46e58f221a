import type { HostState } from '../../model/hostState.js';
import type { RequestSpec } from '../../model/requestSpec.js';
import type { EngineContext } from '../context.js';
import { defineFilter, PASS, PASS_ALL, reject } from '../filter.js';
import { explainNoFit, hasThreads, numaLimitsFor, numaPacking, placeInstance } from '../hardware/numa.js';

interface NumaRequest {
  /** hw:cpu_policy=dedicated with hw:cpu_thread_policy=require (flavor or image): host needs SMT. */
  needsThreads: boolean;
}

const NO_THREADS = reject<NumaRequest>(
  (host) =>
    `the request wants dedicated CPUs on thread siblings (cpu_thread_policy=require) but no NUMA cell of ${host.host} has hyper-threads`,
);
const NO_TOPOLOGY = reject<NumaRequest>(
  (host, spec) =>
    `the request has a ${spec.numa_topology?.cells.length}-cell NUMA topology but ${host.host} reports no NUMA topology`,
);
const NO_FIT = reject<NumaRequest>(
  (host, spec, _req, ctx) =>
    `the guest NUMA topology does not fit ${host.host}: ${explainNoFit(...fitArgs(host, spec, ctx))}`,
);

/**
 * Passes hosts whose NUMA cells can take the guest's NUMA topology (memory, pages, shared and
 * pinned CPUs, thread policy, PCI NUMA affinity), and hosts with hyper-threads when the request
 * asks for dedicated CPUs on thread siblings. A guest topology never fits a host without one.
 */
export const NUMATopologyFilter = defineFilter<NumaRequest>({
  name: 'NUMATopologyFilter',
  prepare: (spec) => {
    const es = spec.flavor.extra_specs;
    const img = spec.image?.properties ?? {};
    const needsThreads =
      (es['hw:cpu_policy'] === 'dedicated' || img.hw_cpu_policy === 'dedicated') &&
      (es['hw:cpu_thread_policy'] === 'require' || img.hw_cpu_thread_policy === 'require');
    if (!needsThreads && !spec.numa_topology) return PASS_ALL;
    return { needsThreads };
  },
  check: (host, spec, req, ctx) => {
    const topology = host.numa_topology;
    if (req.needsThreads && topology && !hasThreads(topology)) return NO_THREADS;
    if (!spec.numa_topology) return PASS;
    if (!topology) return NO_TOPOLOGY;
    return placeInstance(...fitArgs(host, spec, ctx)) !== null ? PASS : NO_FIT;
  },
});

/** The arguments Nova's filter gives numa_fit_instance_to_host, for the fit and for its explanation. */
function fitArgs(host: HostState, spec: RequestSpec, ctx: EngineContext) {
  const pci = spec.pci_requests.length > 0 ? host.pci_stats : null;
  return [
    host.numa_topology!,
    spec.numa_topology!,
    numaLimitsFor(host, ctx.config),
    spec.pci_requests,
    pci,
    numaPacking(ctx.config),
  ] as const;
}
