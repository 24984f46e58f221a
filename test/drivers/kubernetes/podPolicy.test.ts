import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { podDisposition } from '../../../lib/drivers/kubernetes/podPolicy.js';

interface PodShape {
  controller?: string | null;
  owners?: Array<{ kind: string; controller?: boolean }>;
  mirror?: boolean;
  emptyDir?: boolean;
  phase?: string;
}

function pod(shape: PodShape): V1Pod {
  const owners =
    shape.owners ??
    (shape.controller === null ? [] : [{ kind: shape.controller ?? 'ReplicaSet', controller: true }]);
  return {
    metadata: {
      name: 'p',
      namespace: 'default',
      ownerReferences: owners.map((o) => ({
        apiVersion: 'apps/v1',
        kind: o.kind,
        name: 'owner',
        uid: 'u',
        controller: o.controller,
      })),
      annotations: shape.mirror ? { 'kubernetes.io/config.mirror': 'hash' } : undefined,
    },
    spec: {
      containers: [],
      volumes: shape.emptyDir
        ? [{ name: 'scratch', emptyDir: {} }]
        : [{ name: 'cfg', configMap: { name: 'c' } }],
    },
    status: { phase: shape.phase ?? 'Running' },
  };
}

describe('podDisposition', () => {
  it.each<[string, PodShape, boolean, ReturnType<typeof podDisposition>]>([
    ['a ReplicaSet pod is evicted', {}, false, { action: 'evict', emptyDir: false, unmanaged: false }],
    [
      'a DaemonSet pod is skipped',
      { controller: 'DaemonSet' },
      true,
      { action: 'skip', reason: 'daemonset' },
    ],
    [
      'a mirror pod is skipped',
      { controller: null, mirror: true },
      true,
      { action: 'skip', reason: 'mirror' },
    ],
    [
      'an emptyDir pod is evicted and flagged',
      { emptyDir: true },
      false,
      { action: 'evict', emptyDir: true, unmanaged: false },
    ],
    ['an unmanaged pod is refused without force', { controller: null }, false, { action: 'refuse' }],
    [
      'an unmanaged pod is evicted under force',
      { controller: null },
      true,
      { action: 'evict', emptyDir: false, unmanaged: true },
    ],
    [
      'an owner that is not the controller does not make a pod managed',
      { owners: [{ kind: 'ReplicaSet', controller: false }] },
      false,
      { action: 'refuse' },
    ],
    [
      'a DaemonSet owner that is not the controller does not make a pod skipped',
      { owners: [{ kind: 'DaemonSet' }] },
      true,
      { action: 'evict', emptyDir: false, unmanaged: true },
    ],
    [
      'a finished unmanaged pod is evicted',
      { controller: null, phase: 'Succeeded' },
      false,
      { action: 'evict', emptyDir: false, unmanaged: false },
    ],
    [
      'a failed emptyDir pod is evicted unflagged',
      { emptyDir: true, phase: 'Failed' },
      false,
      { action: 'evict', emptyDir: false, unmanaged: false },
    ],
  ])('%s', (_label, shape, force, expected) => {
    expect(podDisposition(pod(shape), force)).toEqual(expected);
  });
});
