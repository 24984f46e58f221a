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
export { connectNova, type NovaConnectOptions } from './connect.js';
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
export { KeystoneSession, type KeystoneSessionOptions, type TokenSource } from './keystone.js';
export { NOVA_DEFAULT_MICROVERSION, NOVA_MIN_MICROVERSION } from './microversion.js';
export { type LiveMigrateOptions, type MigrationFilter, NovaClient, type NovaClientOptions } from './nova.js';
export { DEFAULT_DRIVER_RETRY, type RetryPolicy, retryIdempotent } from './retry.js';
export type { MigrationRecord, NovaServer, ServerMigration } from './schemas.js';
