/**
 * The fake Keystone: `POST /v3/auth/tokens` for password (project-scoped) and application
 * credential auth, tokens that expire on the fake's clock, and a catalog built from the regions.
 */
import { randomBytes } from 'node:crypto';
import type { Clock } from '../../../lib/model/clock.js';
import type { FakeReply } from './http.js';

export interface FakeUser {
  id: string;
  name: string;
  domain: string;
  password: string;
  projectId: string;
  projectName: string;
  /** Holds the admin role (Nova's default policy for live migration and host fields). Default true. */
  admin?: boolean;
}

export interface FakeApplicationCredential {
  id: string;
  name: string;
  secret: string;
  userId: string;
  projectId: string;
}

export const FAKE_ADMIN: FakeUser = {
  id: 'u-admin',
  name: 'admin',
  domain: 'Default',
  password: 'fake-admin-password',
  projectId: 'p-admin',
  projectName: 'admin',
};

/** The clouds.yaml-style `auth` block of FAKE_ADMIN against `authUrl` (another password to test a refusal). */
export function fakeAdminAuth(authUrl: string, password = FAKE_ADMIN.password) {
  return {
    auth_url: authUrl,
    username: FAKE_ADMIN.name,
    password,
    user_domain_name: FAKE_ADMIN.domain,
    project_name: FAKE_ADMIN.projectName,
    project_domain_name: FAKE_ADMIN.domain,
  };
}

/** A member of a project without the admin role: Nova's default policy hides hosts from it. */
export const FAKE_MEMBER: FakeUser = {
  id: 'u-member',
  name: 'placid-member',
  domain: 'Default',
  password: 'fake-member-password',
  projectId: 'p-ops',
  projectName: 'ops',
  admin: false,
};

export const FAKE_APP_CREDENTIAL: FakeApplicationCredential = {
  id: 'ac-placid',
  name: 'placid',
  secret: 'fake-app-credential-secret',
  userId: FAKE_ADMIN.id,
  projectId: FAKE_ADMIN.projectId,
};

export interface CatalogEndpointSpec {
  region: string;
  interface: 'public' | 'internal' | 'admin';
  url: string;
}

interface Identity {
  userId: string;
  projectId: string;
}

const UNAUTHORIZED: FakeReply = {
  status: 401,
  body: {
    error: {
      code: 401,
      title: 'Unauthorized',
      message: 'The request you have made requires authentication.',
    },
  },
};

export class FakeKeystone {
  private readonly tokens = new Map<string, { expiresAtMs: number; admin: boolean; projectId: string }>();
  issued = 0;

  constructor(
    private readonly clock: Clock,
    private readonly tokenTtlMs: number,
    private readonly users: readonly FakeUser[],
    private readonly appCredentials: readonly FakeApplicationCredential[],
    private readonly computeEndpoints: () => CatalogEndpointSpec[],
    /** Placement's endpoints; none when the cloud's catalog lists no Placement. */
    private readonly placementEndpoints: () => CatalogEndpointSpec[] = () => [],
  ) {}

  issueToken(body: unknown): FakeReply {
    const identity = this.identify(body);
    if (!identity) return UNAUTHORIZED;
    const value = `fake-token-${randomBytes(12).toString('hex')}`;
    const expiresAtMs = this.clock.now() + this.tokenTtlMs;
    const admin = this.users.find((u) => u.id === identity.userId)?.admin !== false;
    this.tokens.set(value, { expiresAtMs, admin, projectId: identity.projectId });
    this.issued += 1;
    const toEndpoints = (specs: CatalogEndpointSpec[], prefix: string) =>
      specs.map((e, i) => ({
        id: `${prefix}-${i}`,
        interface: e.interface,
        region: e.region,
        region_id: e.region,
        url: e.url,
      }));
    const endpoints = toEndpoints(this.computeEndpoints(), 'ep');
    const placement = toEndpoints(this.placementEndpoints(), 'ep-placement');
    return {
      status: 201,
      headers: { 'X-Subject-Token': value },
      body: {
        token: {
          methods: ['password'],
          expires_at: new Date(expiresAtMs).toISOString(),
          issued_at: new Date(this.clock.now()).toISOString(),
          user: { id: identity.userId },
          project: { id: identity.projectId },
          catalog: [
            { type: 'compute', name: 'nova', id: 'svc-nova', endpoints },
            ...(placement.length > 0
              ? [{ type: 'placement', name: 'placement', id: 'svc-placement', endpoints: placement }]
              : []),
          ],
        },
      },
    };
  }

  /** True when `token` was issued here, is not revoked, and has not expired on the fake clock. */
  isValid(token: string | undefined): boolean {
    const entry = token === undefined ? undefined : this.tokens.get(token);
    return entry !== undefined && this.clock.now() < entry.expiresAtMs;
  }

  /** True when the token's user has the admin role. */
  isAdmin(token: string | undefined): boolean {
    return token !== undefined && this.tokens.get(token)?.admin === true;
  }

  /** The project the token is scoped to. */
  projectOf(token: string | undefined): string | undefined {
    return token === undefined ? undefined : this.tokens.get(token)?.projectId;
  }

  revokeAll(): void {
    this.tokens.clear();
  }

  unauthorized(): FakeReply {
    return UNAUTHORIZED;
  }

  private identify(body: unknown): Identity | undefined {
    const auth = (body as { auth?: { identity?: Record<string, unknown>; scope?: unknown } })?.auth;
    const identity = auth?.identity as
      | { methods?: string[]; password?: { user?: UserRef }; application_credential?: AppCredRef }
      | undefined;
    if (identity?.methods?.includes('application_credential'))
      return this.byAppCredential(identity.application_credential);
    if (identity?.methods?.includes('password')) return this.byPassword(identity.password?.user, auth?.scope);
    return undefined;
  }

  private byPassword(user: UserRef | undefined, scope: unknown): Identity | undefined {
    const found = this.users.find((u) => matchesUser(u, user) && u.password === user?.password);
    const project = (scope as { project?: { id?: string; name?: string; domain?: DomainRef } })?.project;
    const scoped =
      found &&
      (project?.id === found.projectId ||
        (project?.name === found.projectName && matchesDomain(found.domain, project?.domain)));
    return found && scoped ? { userId: found.id, projectId: found.projectId } : undefined;
  }

  private byAppCredential(ref: AppCredRef | undefined): Identity | undefined {
    const found = this.appCredentials.find(
      (c) =>
        c.secret === ref?.secret &&
        (c.id === ref.id ||
          (c.name === ref.name && this.users.some((u) => u.id === c.userId && matchesUser(u, ref.user)))),
    );
    return found ? { userId: found.userId, projectId: found.projectId } : undefined;
  }
}

type DomainRef = { id?: string; name?: string };
type UserRef = { id?: string; name?: string; domain?: DomainRef; password?: string };
type AppCredRef = { id?: string; name?: string; secret?: string; user?: UserRef };

function matchesUser(user: FakeUser, ref: UserRef | undefined): boolean {
  if (ref?.id !== undefined) return ref.id === user.id;
  return ref?.name === user.name && matchesDomain(user.domain, ref.domain);
}

// The fake's domains have the same id and name (like Keystone's `default`/`Default`, loosely).
function matchesDomain(domain: string, ref: DomainRef | undefined): boolean {
  return ref?.id === domain || ref?.name === domain;
}
