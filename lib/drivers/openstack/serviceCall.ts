/**
 * One authenticated call to an OpenStack service found in the session's catalog: the token, the
 * service's microversion header, a timeout, and one re-authentication when a cached token turns
 * out to be revoked (401). Shared by the inventory and Placement clients.
 */
import type { EndpointInterface } from './auth.js';
import { OpenStackForbiddenError, type OpenStackService } from './errors.js';
import { type FetchLike, type HttpResponse, scrub, sendRequest } from './http.js';
import type { TokenSource } from './keystone.js';

export interface ServiceTarget {
  service: Exclude<OpenStackService, 'identity'>;
  /** Headers that pin the API version, e.g. `OpenStack-API-Version: placement 1.6`. */
  versionHeaders: Record<string, string>;
  interface?: EndpointInterface;
  region?: string;
  timeoutMs: number;
  fetch?: FetchLike;
}

/** GET `path` (relative to the service's catalog URL) and return the response. */
export async function getFromService(
  session: TokenSource,
  target: ServiceTarget,
  path: string,
  reauthenticated = false,
): Promise<HttpResponse> {
  const token = await session.token();
  const base = await session.endpoint({
    type: target.service,
    interface: target.interface,
    region: target.region,
  });
  try {
    return await sendRequest({
      service: target.service,
      method: 'GET',
      url: base + path,
      headers: { 'X-Auth-Token': token, ...target.versionHeaders },
      timeoutMs: target.timeoutMs,
      fetch: target.fetch,
      redact: (message) => session.redact(scrub(message, [token])),
    });
  } catch (error) {
    if (error instanceof OpenStackForbiddenError && error.status === 401 && !reauthenticated) {
      session.invalidate(token);
      return getFromService(session, target, path, true);
    }
    throw error;
  }
}
