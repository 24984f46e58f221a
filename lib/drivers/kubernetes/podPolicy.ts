import type { V1Pod } from '@kubernetes/client-node';
import { MIRROR_POD_ANNOTATION } from './resources.js';
import type { SkipReason } from './types.js';

/**
 * What a drain does with one pod, following kubectl's drain filters in their order:
 * - DaemonSet pods stay (`--ignore-daemonsets`): their controller ignores cordons and would recreate them;
 * - mirror pods stay: they are the API view of static pods that only the kubelet's manifest can remove;
 * - pods with emptyDir volumes go, and their data with them (`--delete-emptydir-data`);
 * - pods without a controller go only under `force`, since nothing will recreate them;
 * - finished pods (Succeeded/Failed) go whatever they are, as there is nothing left to lose.
 */
export type PodDisposition =
  | { action: 'skip'; reason: SkipReason }
  | { action: 'evict'; emptyDir: boolean; unmanaged: boolean }
  | { action: 'refuse' };

export function podDisposition(pod: V1Pod, force: boolean): PodDisposition {
  const controller = pod.metadata?.ownerReferences?.find((ref) => ref.controller === true);
  if (controller?.kind === 'DaemonSet') return { action: 'skip', reason: 'daemonset' };
  if (pod.metadata?.annotations?.[MIRROR_POD_ANNOTATION] !== undefined)
    return { action: 'skip', reason: 'mirror' };
  if (isFinished(pod)) return { action: 'evict', emptyDir: false, unmanaged: false };
  const emptyDir = (pod.spec?.volumes ?? []).some((v) => v.emptyDir !== undefined && v.emptyDir !== null);
  const unmanaged = controller === undefined;
  if (unmanaged && !force) return { action: 'refuse' };
  return { action: 'evict', emptyDir, unmanaged };
}

function isFinished(pod: V1Pod): boolean {
  return pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
}
