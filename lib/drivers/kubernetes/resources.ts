import type { V1Eviction } from '@kubernetes/client-node';

/** The object posted to a pod's `eviction` subresource. */
export function evictionBody(namespace: string, name: string, gracePeriodSeconds?: number): V1Eviction {
  return {
    apiVersion: 'policy/v1',
    kind: 'Eviction',
    metadata: { name, namespace },
    ...(gracePeriodSeconds === undefined ? {} : { deleteOptions: { gracePeriodSeconds } }),
  };
}

/** The annotation the kubelet puts on the API copy of a static pod. */
export const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';

/** The parts of a metav1.Status error body worth repeating in an error message. */
export interface StatusBody {
  message?: string;
  reason?: string;
  details?: { causes?: Array<{ reason?: string; message?: string }> };
}

/** The client hands error bodies over as JSON text; anything unreadable yields undefined. */
export function readStatus(body: unknown): StatusBody | undefined {
  let value = body;
  if (typeof body === 'string') {
    try {
      value = JSON.parse(body);
    } catch {
      return undefined;
    }
  }
  return typeof value === 'object' && value !== null ? (value as StatusBody) : undefined;
}
