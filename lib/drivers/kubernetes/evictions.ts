import { backoffCeiling } from '../../model/backoff.js';
import type { Clock } from '../../model/clock.js';
import type { KubernetesApi } from './KubernetesApi.js';
import type { PodRef } from './types.js';

/** When to give up, and how to pace the retries and polls until then. */
export interface Pacing {
  clock: Clock;
  /** Epoch ms after which no further attempt is made. */
  deadline: number;
  initialRetryDelayMs: number;
  maxRetryDelayMs: number;
  pollIntervalMs: number;
  /** Aborted: no further request is made; its reason is thrown. */
  signal?: AbortSignal;
}

export type EvictionOutcome =
  | { outcome: 'evicted' }
  | { outcome: 'gone' }
  | { outcome: 'blocked'; attempts: number; reason: string };

/**
 * Asks the Eviction API to evict one pod. A 429 means a PodDisruptionBudget has no disruption to
 * spare yet (another pod is still starting elsewhere), so it is retried with exponential backoff;
 * the last attempt is made at the deadline itself. Any other failure is thrown.
 */
export async function evictUntilDeadline(
  api: KubernetesApi,
  pod: PodRef,
  pacing: Pacing,
  gracePeriodSeconds?: number,
): Promise<EvictionOutcome> {
  const { clock, deadline } = pacing;
  // No jitter: each eviction is its own loop, and the PDB frees up on the cluster's schedule.
  const backoff = { baseDelayMs: pacing.initialRetryDelayMs, maxDelayMs: pacing.maxRetryDelayMs };
  for (let attempt = 1; ; attempt++) {
    pacing.signal?.throwIfAborted();
    const response = await api.evictPod(pod.namespace, pod.name, gracePeriodSeconds);
    if (response.outcome !== 'blocked') return response;
    const now = clock.now();
    if (now >= deadline) return { outcome: 'blocked', attempts: attempt, reason: response.reason };
    await clock.sleep(Math.min(backoffCeiling(attempt - 1, backoff), deadline - now), pacing.signal);
  }
}

/**
 * Polls until every pod is gone, or the deadline passes; returns the pods still there. A pod that
 * came back under the same name with a new UID (a StatefulSet replica) counts as gone, like kubectl.
 */
export async function waitUntilGone(
  api: KubernetesApi,
  pods: Array<PodRef & { uid?: string }>,
  pacing: Pacing,
): Promise<PodRef[]> {
  const { clock, deadline } = pacing;
  let pending = pods;
  for (;;) {
    pacing.signal?.throwIfAborted();
    const current = await Promise.all(pending.map((p) => api.getPod(p.namespace, p.name)));
    pending = pending.filter((p, i) => {
      const found = current[i];
      return found !== null && (p.uid === undefined || found.metadata?.uid === p.uid);
    });
    if (pending.length === 0) return [];
    const now = clock.now();
    if (now >= deadline) return pending.map(({ namespace, name }) => ({ namespace, name }));
    await clock.sleep(Math.min(pacing.pollIntervalMs, deadline - now), pacing.signal);
  }
}
