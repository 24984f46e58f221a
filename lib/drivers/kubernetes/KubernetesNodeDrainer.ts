import type { V1Node, V1Pod } from '@kubernetes/client-node';
import { type Clock, systemClock } from '../../model/clock.js';
import type { ServerIdentity } from '../openstack/schemas.js';
import { type KubernetesConnection, loadKubeConfig } from './connection.js';
import { resolveDrainOptions } from './drainOptions.js';
import {
  type BlockedEviction,
  DrainTimeoutError,
  EvictionBlockedError,
  UnmanagedPodsError,
} from './errors.js';
import { evictUntilDeadline, type Pacing, waitUntilGone } from './evictions.js';
import { KubernetesApi } from './KubernetesApi.js';
import { podDisposition } from './podPolicy.js';
import { nodesOfServer } from './serverNode.js';
import {
  type CordonOutcome,
  DRAINED_AT_ANNOTATION,
  DRAINED_BY_ANNOTATION,
  type DrainOptions,
  type NodeDrainer,
  type NodeDrainResult,
  type NodeMatch,
  type PodRef,
  podKey,
  type UncordonOutcome,
} from './types.js';

export interface DrainerDependencies {
  /** Time source for deadlines, backoff and polling; a ManualClock makes tests instant. */
  clock?: Clock;
}

/** A NodeDrainer over the Kubernetes REST API (core/v1 nodes and pods, policy/v1 evictions). */
export class KubernetesNodeDrainer implements NodeDrainer {
  private readonly clock: Clock;

  constructor(
    private readonly api: KubernetesApi,
    deps: DrainerDependencies = {},
  ) {
    this.clock = deps.clock ?? systemClock;
  }

  /** Validates the connection settings, reads any files they name, and builds a drainer. */
  static async connect(
    connection: KubernetesConnection,
    deps?: DrainerDependencies,
  ): Promise<KubernetesNodeDrainer> {
    const { access, timeoutMs } = await loadKubeConfig(connection);
    return new KubernetesNodeDrainer(new KubernetesApi(access, timeoutMs), deps);
  }

  /** Closes its keep-alive connections (a driver replaced after a rotation, lib/drivers/rotation.ts). */
  close(): void {
    this.api.close();
  }

  /** Every node of the cluster, as the API gives them. */
  async nodes(): Promise<V1Node[]> {
    return this.api.listNodes();
  }

  async nodesOfServer(server: ServerIdentity): Promise<NodeMatch[]> {
    return nodesOfServer(await this.api.listNodes(), server);
  }

  async isCordoned(node: string): Promise<boolean> {
    return (await this.api.getNode(node)).spec?.unschedulable === true;
  }

  // Reading first lets the caller learn whether someone else had cordoned the node, and so
  // whether an undrain should leave it cordoned.
  async cordon(node: string, mark?: DrainOptions['mark']): Promise<CordonOutcome> {
    if (await this.isCordoned(node)) return 'already-cordoned';
    const annotations = mark && {
      [DRAINED_BY_ANNOTATION]: mark.migrationId,
      [DRAINED_AT_ANNOTATION]: mark.at.toISOString(),
    };
    await this.api.patchNode(node, { unschedulable: true, annotations });
    return 'cordoned';
  }

  async uncordon(node: string): Promise<UncordonOutcome> {
    const current = await this.api.getNode(node);
    const cordoned = current.spec?.unschedulable === true;
    const marked = current.metadata?.annotations?.[DRAINED_BY_ANNOTATION] !== undefined;
    if (!cordoned && !marked) return 'already-schedulable';
    const annotations = marked ? { [DRAINED_BY_ANNOTATION]: null, [DRAINED_AT_ANNOTATION]: null } : undefined;
    await this.api.patchNode(node, { unschedulable: cordoned ? false : undefined, annotations });
    return cordoned ? 'uncordoned' : 'already-schedulable';
  }

  /**
   * Like kubectl, cordons first (so nothing new lands while pods leave) and leaves the node cordoned
   * when the drain fails: undoing it is the caller's rollback, which must uncordon anyway.
   */
  async drain(node: string, options?: DrainOptions): Promise<NodeDrainResult> {
    const { signal, mark, ...rest } = options ?? {};
    const opts = resolveDrainOptions(rest);
    const started = this.clock.now();
    const pacing: Pacing = { ...opts, clock: this.clock, deadline: started + opts.timeoutMs, signal };

    await this.cordon(node, mark);
    const plan = planDrain(await this.api.listPodsOnNode(node), opts.force);
    if (plan.refused.length > 0) throw new UnmanagedPodsError(node, plan.refused);

    const settled = await Promise.allSettled(
      plan.evict.map((pod) => evictUntilDeadline(this.api, pod, pacing, opts.gracePeriodSeconds)),
    );
    const evicted: Array<PodRef & { uid?: string }> = [];
    const alreadyGone: PodRef[] = [];
    const blocked: BlockedEviction[] = [];
    const failures: unknown[] = [];
    settled.forEach((result, i) => {
      const pod = plan.evict[i];
      if (result.status === 'rejected') failures.push(result.reason);
      else if (result.value.outcome === 'evicted') evicted.push(pod);
      else if (result.value.outcome === 'gone') alreadyGone.push(ref(pod));
      else blocked.push({ pod: ref(pod), attempts: result.value.attempts, reason: result.value.reason });
    });
    if (blocked.length > 0) throw new EvictionBlockedError(node, blocked, opts.timeoutMs);
    if (failures.length > 0) throw failures[0];

    const pending = await waitUntilGone(this.api, evicted, pacing);
    if (pending.length > 0) throw new DrainTimeoutError(node, pending, opts.timeoutMs);

    return {
      node,
      evicted: evicted.map(ref),
      alreadyGone,
      skipped: plan.skipped,
      warnings: plan.warnings,
      durationMs: this.clock.now() - started,
    };
  }
}

interface DrainPlan {
  evict: Array<PodRef & { uid?: string }>;
  skipped: NodeDrainResult['skipped'];
  refused: PodRef[];
  warnings: string[];
}

function planDrain(pods: V1Pod[], force: boolean): DrainPlan {
  const plan: DrainPlan = { evict: [], skipped: [], refused: [], warnings: [] };
  const withEmptyDir: PodRef[] = [];
  const unmanaged: PodRef[] = [];
  for (const pod of pods) {
    const { namespace = 'default', name = '', uid } = pod.metadata ?? {};
    const target = { namespace, name, uid };
    const disposition = podDisposition(pod, force);
    if (disposition.action === 'skip') plan.skipped.push({ ...ref(target), reason: disposition.reason });
    else if (disposition.action === 'refuse') plan.refused.push(ref(target));
    else {
      plan.evict.push(target);
      if (disposition.emptyDir) withEmptyDir.push(target);
      if (disposition.unmanaged) unmanaged.push(target);
    }
  }
  if (withEmptyDir.length > 0) plan.warnings.push(`deleting pods with emptyDir data: ${list(withEmptyDir)}`);
  if (unmanaged.length > 0)
    plan.warnings.push(`deleting pods that declare no controller (force): ${list(unmanaged)}`);
  return plan;
}

const ref = ({ namespace, name }: PodRef): PodRef => ({ namespace, name });
const list = (pods: PodRef[]) => pods.map(podKey).join(', ');
