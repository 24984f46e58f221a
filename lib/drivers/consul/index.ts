/** The Consul driver: put a VM's Consul node in maintenance and take it out again. */
export { type AgentEndpoint, parseAgentAddress } from './agentAddress.js';
export { ConsulMaintenanceSwitch, NODE_MAINTENANCE_CHECK } from './ConsulMaintenanceSwitch.js';
export {
  ConsulApiError,
  ConsulError,
  ConsulNodeMismatchError,
  ConsulPermissionError,
  ConsulTlsError,
  ConsulUnreachableError,
} from './errors.js';
export { type ConsulOptions, consulOptionsSchema, resolveConsulOptions } from './options.js';
export type {
  CatalogNode,
  ConsulAgentRef,
  DisableOutcome,
  EnableOutcome,
  MaintenanceStatus,
  MaintenanceSwitch,
  ServerIdentity,
} from './types.js';
