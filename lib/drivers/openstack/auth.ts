/**
 * Keystone v3 credentials and the `POST /v3/auth/tokens` body they turn into. Two methods:
 * password (scoped to a project, since Nova's admin APIs need a project-scoped token) and
 * application credential (whose scope is fixed when the credential is created, so none is sent).
 */

export type DomainRef = { id: string } | { name: string };

/** A user by id, or by name within a domain (names are only unique per domain). */
export type UserRef = { id: string } | { name: string; domain: DomainRef };

/** A project by id, or by name within a domain. */
export type ProjectRef = { id: string } | { name: string; domain: DomainRef };

export interface PasswordAuth {
  method: 'password';
  user: UserRef;
  password: string;
  project: ProjectRef;
}

export interface ApplicationCredentialAuth {
  method: 'application_credential';
  /** By id, or by name plus the user who owns it. */
  credential: { id: string } | { name: string; user: UserRef };
  secret: string;
}

export type KeystoneAuth = PasswordAuth | ApplicationCredentialAuth;

export type EndpointInterface = 'public' | 'internal' | 'admin';

/** Everything needed to reach a cloud: where Keystone is, who we are, which endpoints to use. */
export interface CloudCredentials {
  /** Keystone's URL, with or without the trailing `/v3`. */
  authUrl: string;
  auth: KeystoneAuth;
  /** Region of the endpoints to use; required when the catalog lists several. */
  region?: string;
  interface?: EndpointInterface;
  /** CA bundle for Keystone and the services: a PEM file's path, or PEM text (clouds.yaml `cacert`). */
  cacert?: string;
  /** Skip certificate checks (clouds.yaml `verify: false`); never implied. */
  insecure?: boolean;
}

/** The request body of `POST /v3/auth/tokens` for these credentials. */
export function authRequestBody(auth: KeystoneAuth): unknown {
  if (auth.method === 'password') {
    return {
      auth: {
        identity: {
          methods: ['password'],
          password: { user: { ...userRef(auth.user), password: auth.password } },
        },
        scope: { project: projectRef(auth.project) },
      },
    };
  }
  const credential =
    'id' in auth.credential
      ? { id: auth.credential.id, secret: auth.secret }
      : { name: auth.credential.name, user: userRef(auth.credential.user), secret: auth.secret };
  return {
    auth: {
      identity: { methods: ['application_credential'], application_credential: credential },
    },
  };
}

/** The secret strings of these credentials, to scrub from anything an API echoes back. */
export function authSecrets(auth: KeystoneAuth): string[] {
  return [auth.method === 'password' ? auth.password : auth.secret];
}

/** `https://keystone:5000`, `…/v3` and `…/v3/` all lead to `…/v3/auth/tokens`. */
export function tokensUrl(authUrl: string): string {
  const base = authUrl.replace(/\/+$/, '');
  return /\/v3$/.test(base) ? `${base}/auth/tokens` : `${base}/v3/auth/tokens`;
}

function userRef(user: UserRef): object {
  return 'id' in user ? { id: user.id } : { name: user.name, domain: domainRef(user.domain) };
}

function projectRef(project: ProjectRef): object {
  return 'id' in project ? { id: project.id } : { name: project.name, domain: domainRef(project.domain) };
}

function domainRef(domain: DomainRef): object {
  return 'id' in domain ? { id: domain.id } : { name: domain.name };
}
