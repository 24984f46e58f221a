/**
 * Reads credentials in the shape of one `clouds.yaml` entry (`auth`, `auth_type`, `region_name`,
 * `interface`, `cacert`, `verify`/`insecure`), the format operators already have, into typed
 * `CloudCredentials`. Bad input gets a ValidationError naming each field; the error never contains
 * a field's value. Other clouds.yaml keys (`identity_api_version`, `profile`…) are ignored.
 */
import * as z from 'zod';
import { type Issue, ValidationError } from '../../model/errors.js';
import type { CloudCredentials, DomainRef, KeystoneAuth, UserRef } from './auth.js';

const text = z.string().min(1).optional();

const cloudEntrySchema = z.object({
  auth_type: z.enum(['password', 'v3password', 'v3applicationcredential']).optional(),
  region_name: text,
  interface: z.enum(['public', 'internal', 'admin']).optional(),
  /** Path to a PEM CA bundle (as in clouds.yaml), or the PEM text itself. */
  cacert: text,
  /** `false` turns certificate checks off; only ever when written explicitly. */
  verify: z.boolean().optional(),
  /** The openstack CLI's spelling of `verify: false`. */
  insecure: z.boolean().optional(),
  auth: z.object({
    auth_url: z.url(),
    username: text,
    user_id: text,
    password: text,
    user_domain_name: text,
    user_domain_id: text,
    project_name: text,
    project_id: text,
    project_domain_name: text,
    project_domain_id: text,
    application_credential_id: text,
    application_credential_name: text,
    application_credential_secret: text,
  }),
});

type AuthFields = z.infer<typeof cloudEntrySchema>['auth'];

/** Parses one clouds.yaml-style entry; `source` names where it came from in error messages. */
export function parseCloudCredentials(value: unknown, source: string): CloudCredentials {
  const parsed = cloudEntrySchema.safeParse(value);
  if (!parsed.success) {
    // zod messages describe the expected type, never the received value, so they are safe to show.
    throw new ValidationError(
      source,
      parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
    );
  }
  const entry = parsed.data;
  const issues: Issue[] = [];
  const useAppCredential =
    entry.auth_type === 'v3applicationcredential' ||
    (entry.auth_type === undefined && entry.auth.application_credential_secret !== undefined);
  const auth = useAppCredential ? applicationCredential(entry.auth, issues) : password(entry.auth, issues);
  const insecure = entry.verify === false || entry.insecure === true;
  if (insecure && (entry.verify === true || entry.insecure === false)) {
    issues.push({ path: 'verify', message: 'verify and insecure contradict each other' });
  }
  if (issues.length > 0 || auth === undefined) throw new ValidationError(source, issues);
  return {
    authUrl: entry.auth.auth_url,
    auth,
    region: entry.region_name,
    interface: entry.interface,
    ...(entry.cacert !== undefined ? { cacert: entry.cacert } : {}),
    ...(insecure ? { insecure } : {}),
  };
}

function password(f: AuthFields, issues: Issue[]): KeystoneAuth | undefined {
  const user = userFrom(f, 'auth', issues);
  if (f.password === undefined) issues.push({ path: 'auth.password', message: 'required for password auth' });
  let project: { id: string } | { name: string; domain: DomainRef } | undefined;
  if (f.project_id !== undefined) project = { id: f.project_id };
  else if (f.project_name !== undefined) {
    const domain = domainFrom(f.project_domain_id, f.project_domain_name);
    if (domain) project = { name: f.project_name, domain };
    else
      issues.push({
        path: 'auth.project_domain_name',
        message: 'project_name needs project_domain_name or _id',
      });
  } else issues.push({ path: 'auth.project_id', message: 'password auth needs project_id or project_name' });
  if (!user || !project || f.password === undefined) return undefined;
  return { method: 'password', user, password: f.password, project };
}

function applicationCredential(f: AuthFields, issues: Issue[]): KeystoneAuth | undefined {
  const secret = f.application_credential_secret;
  if (secret === undefined) {
    issues.push({
      path: 'auth.application_credential_secret',
      message: 'required for application credentials',
    });
  }
  let credential: { id: string } | { name: string; user: UserRef } | undefined;
  if (f.application_credential_id !== undefined) credential = { id: f.application_credential_id };
  else if (f.application_credential_name !== undefined) {
    const user = userFrom(f, 'auth', issues);
    if (user) credential = { name: f.application_credential_name, user };
  } else {
    issues.push({
      path: 'auth.application_credential_id',
      message: 'application credentials need application_credential_id, or _name with the user',
    });
  }
  if (!credential || secret === undefined) return undefined;
  return { method: 'application_credential', credential, secret };
}

function userFrom(f: AuthFields, prefix: string, issues: Issue[]): UserRef | undefined {
  if (f.user_id !== undefined) return { id: f.user_id };
  if (f.username === undefined) {
    issues.push({ path: `${prefix}.username`, message: 'needs user_id or username' });
    return undefined;
  }
  const domain = domainFrom(f.user_domain_id, f.user_domain_name);
  if (domain) return { name: f.username, domain };
  issues.push({
    path: `${prefix}.user_domain_name`,
    message: 'username needs user_domain_name or user_domain_id',
  });
  return undefined;
}

function domainFrom(id: string | undefined, name: string | undefined): DomainRef | undefined {
  if (id !== undefined) return { id };
  return name === undefined ? undefined : { name };
}
