import { z } from 'zod';

/** Only the fields the drainer reads; everything else the API returns is kept but ignored. */
const ownerReference = z.looseObject({
  kind: z.string(),
  name: z.string(),
  controller: z.boolean().optional(),
});

export const podSchema = z.looseObject({
  metadata: z.looseObject({
    name: z.string(),
    namespace: z.string(),
    uid: z.string().optional(),
    annotations: z.record(z.string(), z.string()).nullish(),
    ownerReferences: z.array(ownerReference).nullish(),
    deletionTimestamp: z.string().nullish(),
  }),
  spec: z
    .looseObject({
      nodeName: z.string().optional(),
      volumes: z.array(z.looseObject({ name: z.string(), emptyDir: z.unknown().optional() })).nullish(),
    })
    .default({}),
  status: z.looseObject({ phase: z.string().optional() }).default({}),
});
export type Pod = z.output<typeof podSchema>;

export const podListSchema = z.looseObject({
  items: z.array(podSchema).nullish(),
  metadata: z.looseObject({ continue: z.string().nullish() }).default({}),
});

export const nodeSchema = z.looseObject({
  metadata: z.looseObject({ name: z.string() }),
  spec: z.looseObject({ unschedulable: z.boolean().nullish() }).default({}),
});
export type Node = z.output<typeof nodeSchema>;

/** The `Status` object the API server returns with errors. */
export const statusSchema = z.looseObject({
  message: z.string().optional(),
  reason: z.string().optional(),
  details: z
    .looseObject({
      retryAfterSeconds: z.number().optional(),
      causes: z
        .array(z.looseObject({ reason: z.string().optional(), message: z.string().optional() }))
        .nullish(),
    })
    .nullish(),
});
export type Status = z.output<typeof statusSchema>;

/** The object posted to a pod's `eviction` subresource. */
export function evictionBody(namespace: string, name: string, gracePeriodSeconds?: number) {
  return {
    apiVersion: 'policy/v1',
    kind: 'Eviction',
    metadata: { name, namespace },
    ...(gracePeriodSeconds === undefined ? {} : { deleteOptions: { gracePeriodSeconds } }),
  };
}

/** The annotation the kubelet puts on the API copy of a static pod. */
export const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';
