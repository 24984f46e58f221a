/** The Kubernetes driver: cordon, drain and uncordon a VM's node. */
export { type KubernetesConnection, loadKubeConfig } from './connection.js';
export { drainOptionsSchema } from './drainOptions.js';
export {
  type BlockedEviction,
  DrainTimeoutError,
  EvictionBlockedError,
  KubernetesApiError,
  KubernetesError,
  NodeNotFoundError,
  UnmanagedPodsError,
} from './errors.js';
export { type EvictionResponse, KubernetesApi } from './KubernetesApi.js';
export { type DrainerDependencies, KubernetesNodeDrainer } from './KubernetesNodeDrainer.js';
export { nodesOfServer } from './serverNode.js';
export type {
  CordonOutcome,
  DrainOptions,
  NodeDrainer,
  NodeDrainResult,
  NodeMatch,
  PodRef,
  ServerIdentity,
  SkipReason,
  UncordonOutcome,
} from './types.js';
