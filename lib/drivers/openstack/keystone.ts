/**
 * A Keystone v3 session: authenticates once, caches the token until shortly before `expires_at`,
 * shares one in-flight authentication between concurrent callers, and looks endpoints up in the
 * token's service catalog. Credentials live in private fields, so logging the session shows none.
 */
import { inspect } from 'node:util';
import { type Clock, systemClock } from '../../model/clock.js';
import { ConfigError } from '../../model/errors.js';
import {
  authRequestBody,
  authSecrets,
  type CloudCredentials,
  type EndpointInterface,
  tokensUrl,
} from './auth.js';
import { type EndpointQuery, selectEndpoint } from './catalog.js';
import { KeystoneAuthError, OpenStackApiError, OpenStackUnavailableError } from './errors.js';
import { type FetchLike, parseBody, scrub, sendRequest } from './http.js';
import { type CatalogEntry, tokenResponseSchema } from './schemas.js';

export interface KeystoneSessionOptions {
  /** Per-request timeout for `POST /v3/auth/tokens`. Default 10 s. */
  timeoutMs?: number;
  /** Re-authenticate when the token expires within this margin. Default 5 min. */
  refreshMarginMs?: number;
  /** When tokens were issued and expire; injectable so tests can move time. */
  clock?: Pick<Clock, 'now'>;
  fetch?: FetchLike;
}

interface CachedToken {
  value: string;
  expiresAtMs: number;
  /** When to re-authenticate: expiry minus the margin (at most half the token's lifetime). */
  refreshAtMs: number;
  catalog: CatalogEntry[];
}

export const DEFAULT_KEYSTONE_TIMEOUT_MS = 10_000;
export const DEFAULT_REFRESH_MARGIN_MS = 5 * 60_000;

/** What a service client needs from a session; NovaClient depends on this, not on the class. */
export interface TokenSource {
  token(): Promise<string>;
  endpoint(query: EndpointQuery): Promise<string>;
  /** Forget `token` (e.g. after a 401, when it was revoked); the next call authenticates again. */
  invalidate(token: string): void;
  /** `text` with the session's secrets (password or secret, tokens) blanked out. */
  redact(text: string): string;
}

export class KeystoneSession implements TokenSource {
  readonly #credentials: CloudCredentials;
  readonly #timeoutMs: number;
  readonly #marginMs: number;
  readonly #clock: Pick<Clock, 'now'>;
  readonly #fetch: FetchLike | undefined;
  #cached: CachedToken | undefined;
  #inFlight: Promise<CachedToken> | undefined;

  constructor(credentials: CloudCredentials, options: KeystoneSessionOptions = {}) {
    this.#timeoutMs = milliseconds(options.timeoutMs ?? DEFAULT_KEYSTONE_TIMEOUT_MS, 'timeoutMs', 1);
    this.#marginMs = milliseconds(options.refreshMarginMs ?? DEFAULT_REFRESH_MARGIN_MS, 'refreshMarginMs', 0);
    if (!/^https?:\/\/[^/]/.test(credentials.authUrl) || !URL.canParse(credentials.authUrl)) {
      throw new ConfigError(
        `KeystoneSession authUrl ${JSON.stringify(credentials.authUrl)} is not an http(s) URL`,
      );
    }
    this.#credentials = credentials;
    this.#clock = options.clock ?? systemClock;
    this.#fetch = options.fetch;
  }

  /** A valid token, authenticating first if none is cached or the cached one is about to expire. */
  async token(): Promise<string> {
    return (await this.#current()).value;
  }

  /** The catalog URL for a service; interface and region default to the credentials' own. */
  async endpoint(query: EndpointQuery): Promise<string> {
    const { catalog } = await this.#current();
    return selectEndpoint(catalog, {
      type: query.type,
      interface: query.interface ?? this.#credentials.interface ?? ('public' satisfies EndpointInterface),
      region: query.region ?? this.#credentials.region,
    });
  }

  invalidate(token: string): void {
    if (this.#cached?.value === token) this.#cached = undefined;
  }

  redact(text: string): string {
    const tokens = this.#cached ? [this.#cached.value] : [];
    return scrub(text, [...authSecrets(this.#credentials.auth), ...tokens]);
  }

  async #current(): Promise<CachedToken> {
    const cached = this.#cached;
    if (cached && this.#clock.now() < cached.refreshAtMs) return cached;
    // Concurrent callers share one request instead of each minting a token.
    this.#inFlight ??= this.#authenticate().finally(() => {
      this.#inFlight = undefined;
    });
    return this.#inFlight;
  }

  async #authenticate(): Promise<CachedToken> {
    const issuedAtMs = this.#clock.now();
    const request = {
      service: 'identity' as const,
      method: 'POST' as const,
      url: tokensUrl(this.#credentials.authUrl),
      body: authRequestBody(this.#credentials.auth),
      timeoutMs: this.#timeoutMs,
      fetch: this.#fetch,
      redact: (message: string) => this.redact(message),
      withholdErrorBody: true,
    };
    const response = await sendRequest(request).catch((error: unknown) => {
      // 5xx and 429 stay retryable; any other refusal means the credentials are wrong.
      if (error instanceof OpenStackApiError && !(error instanceof OpenStackUnavailableError)) {
        throw new KeystoneAuthError(`${error.status}: ${error.apiMessage}`, error.status);
      }
      throw error;
    });
    const value = response.headers.get('x-subject-token');
    if (!value) throw new KeystoneAuthError('the response has no X-Subject-Token header', response.status);
    const site = { service: request.service, method: request.method, path: new URL(request.url).pathname };
    const { token } = parseBody(tokenResponseSchema, response, site);
    const expiresAtMs = Date.parse(token.expires_at);
    const margin = Math.min(this.#marginMs, Math.max(0, expiresAtMs - issuedAtMs) / 2);
    this.#cached = { value, expiresAtMs, refreshAtMs: expiresAtMs - margin, catalog: token.catalog };
    return this.#cached;
  }

  toJSON(): object {
    return { authUrl: this.#credentials.authUrl, auth: '[redacted]' };
  }

  [inspect.custom](): string {
    return `KeystoneSession { authUrl: '${this.#credentials.authUrl}', auth: [redacted] }`;
  }
}

function milliseconds(value: number, name: string, min: number): number {
  if (!(Number.isFinite(value) && value >= min)) {
    throw new ConfigError(`KeystoneSession ${name} must be a number of ms >= ${min}, got ${value}`);
  }
  return value;
}
