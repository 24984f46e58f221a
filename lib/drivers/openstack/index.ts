export { DEFAULT_DRIVER_RETRY, type RetryPolicy, retryIdempotent } from '../retry.js';
export type {
  ApplicationCredentialAuth,
  CloudCredentials,
  DomainRef,
  EndpointInterface,
  KeystoneAuth,
  PasswordAuth,
  ProjectRef,
  UserRef,
} from './auth.js';
export { type EndpointQuery, selectEndpoint } from './catalog.js';
export { parseCloudCredentials } from './cloudConfig.js';
export { cloudFetch, connectNova, type NovaConnectOptions } from './connect.js';
export {
  type CallSite,
  EndpointNotFoundError,
  KeystoneAuthError,
  MicroversionNotSupportedError,
  NovaConflictError,
  OpenStackApiError,
  OpenStackBadRequestError,
  OpenStackError,
  OpenStackForbiddenError,
  OpenStackNetworkError,
  OpenStackNotFoundError,
  OpenStackResponseError,
  OpenStackTimeoutError,
  OpenStackUnavailableError,
} from './errors.js';
export {
  DEFAULT_PAGE_SIZE,
  HYPERVISOR_USAGE_REMOVED_IN,
  INVENTORY_DEFAULT_MICROVERSION,
  INVENTORY_MIN_MICROVERSION,
  NovaInventoryClient,
  type NovaInventoryOptions,
} from './inventory.js';
export type {
  NovaAggregate,
  NovaHypervisor,
  NovaInventoryServer,
  NovaServerGroup,
  PlacementInventory,
} from './inventorySchemas.js';
export { KeystoneSession, type KeystoneSessionOptions, type TokenSource } from './keystone.js';
export { NOVA_DEFAULT_MICROVERSION, NOVA_MIN_MICROVERSION } from './microversion.js';
export { type LiveMigrateOptions, type MigrationFilter, NovaClient, type NovaClientOptions } from './nova.js';
export { PLACEMENT_MICROVERSION, PlacementClient, type PlacementClientOptions } from './placement.js';
export type { MigrationRecord, NovaServer, ServerMigration } from './schemas.js';
export { type CloudTls, caBundle, fetchFor } from './tlsFetch.js';
