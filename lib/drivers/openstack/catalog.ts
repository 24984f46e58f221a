/** Picking one endpoint out of a Keystone service catalog. */
import type { EndpointInterface } from './auth.js';
import { EndpointNotFoundError } from './errors.js';
import type { CatalogEntry } from './schemas.js';

export interface EndpointQuery {
  /** Service type, e.g. `compute`. */
  type: string;
  interface?: EndpointInterface;
  /** Required only when the catalog lists the service in more than one region. */
  region?: string;
}

/**
 * The URL of the one endpoint matching type, interface (default `public`) and region. With no region
 * given, several regions are an error rather than a guess: migrating in the wrong region is worse
 * than refusing to start.
 */
export function selectEndpoint(catalog: readonly CatalogEntry[], query: EndpointQuery): string {
  const wantedInterface = query.interface ?? 'public';
  const endpoints = catalog
    .filter((entry) => entry.type === query.type)
    .flatMap((entry) => entry.endpoints)
    .filter((endpoint) => endpoint.interface === wantedInterface);
  const regionOf = (e: (typeof endpoints)[number]) => e.region_id ?? e.region ?? '';
  const matching =
    query.region === undefined ? endpoints : endpoints.filter((e) => regionOf(e) === query.region);
  const where = `${query.type} endpoint with interface ${wantedInterface}${query.region ? ` in region ${query.region}` : ''}`;
  if (matching.length === 0) {
    const regions = [...new Set(endpoints.map(regionOf))].join(', ') || 'none';
    throw new EndpointNotFoundError(
      `the service catalog has no ${where} (regions with that interface: ${regions})`,
    );
  }
  const urls = [...new Set(matching.map((e) => e.url))];
  if (urls.length > 1) {
    const regions = [...new Set(matching.map(regionOf))].join(', ');
    throw new EndpointNotFoundError(
      `the service catalog has several ${where} (regions: ${regions}); set a region`,
    );
  }
  return urls[0].replace(/\/+$/, '');
}
