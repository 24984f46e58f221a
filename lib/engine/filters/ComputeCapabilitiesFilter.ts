import { type HostState, hostAttribute } from '../../model/hostState.js';
import { compileExtraSpec, type ExtraSpecMatcher } from '../extraSpecsOps.js';
import { defineFilter, PASS, PASS_ALL, reject } from '../filter.js';
import { parseJson } from '../json.js';
import { isPyDict, pythonStr } from '../pyValues.js';

/** One flavor extra spec this filter checks: where to look on the host and what must match. */
interface Capability {
  key: string;
  req: string;
  /** Names walked from the host: an attribute (or stats key), then dict keys, parsing JSON strings. */
  path: string[];
  /** A bare key only counts when the host has that attribute or stats key. */
  bare: boolean;
  matches: ExtraSpecMatcher;
}

const CAPABILITY_UNMET = reject<Capability[]>((host, _spec, caps) => {
  for (const cap of caps) {
    if (cap.bare && !hasCapability(host, cap.key)) continue;
    const value = walk(host, cap.path);
    const where = cap.path.join(':');
    if (value === undefined) {
      return `flavor extra spec ${cap.key}='${cap.req}' needs host capability ${where}, which ${host.host} does not report`;
    }
    if (!cap.matches(pythonStr(value))) {
      return `flavor extra spec ${cap.key}='${cap.req}' does not match ${host.host}'s ${where}='${pythonStr(value)}'`;
    }
  }
  return `host does not satisfy the flavor's capabilities extra specs`;
});

/**
 * Nova's ComputeCapabilitiesFilter: flavor extra specs scoped `capabilities:` (split on every ':'),
 * or bare keys the host knows, matched with the extra-spec grammar against `str()` of the host
 * value found by walking the path. `hw:maxphysaddr_bits` becomes `capabilities:cpu_info:maxphysaddr:bits`.
 */
export const ComputeCapabilitiesFilter = defineFilter<Capability[]>({
  name: 'ComputeCapabilitiesFilter',
  runFilterOncePerRequest: true,
  prepare: (spec) => {
    const caps = capabilities(spec.flavor.extra_specs);
    return caps.length > 0 ? caps : PASS_ALL;
  },
  check: (host, _spec, caps) => {
    for (const cap of caps) {
      if (cap.bare && !hasCapability(host, cap.key)) continue;
      const value = walk(host, cap.path);
      if (value === undefined || !cap.matches(pythonStr(value))) return CAPABILITY_UNMET;
    }
    return PASS;
  },
});

function capabilities(extraSpecs: Readonly<Record<string, string>>): Capability[] {
  const specs = new Map(Object.entries(extraSpecs));
  const bits = specs.get('hw:maxphysaddr_bits');
  if (bits !== undefined) {
    specs.set('capabilities:cpu_info:maxphysaddr:bits', `>= ${bits}`);
    specs.delete('hw:maxphysaddr_bits');
  }
  const out: Capability[] = [];
  for (const [key, req] of specs) {
    const scope = key.split(':');
    if (scope.length > 1 && scope[0] !== 'capabilities') continue; // hw:, trait:, resources: ... are not ours
    const path = scope.length === 1 ? scope : scope.slice(1);
    out.push({
      key,
      req,
      path,
      bare: scope.length === 1,
      matches: compileExtraSpec(req, `flavor extra spec ${key}='${req}'`),
    });
  }
  return out;
}

/** Nova's `hasattr(host_state, key) or key in host_state.stats` (an attribute that is None still counts). */
function hasCapability(host: HostState, key: string): boolean {
  return hostAttribute(host, key) !== undefined || Object.hasOwn(host.stats, key);
}

/**
 * Nova's `_get_capabilities`: the first name is a host attribute (stats when the attribute is
 * missing or None), later names are dict keys; a string is JSON-parsed before walking below it.
 * Returns undefined where Nova returns None (missing, null, bad JSON, or not a dict).
 */
function walk(host: HostState, path: readonly string[]): unknown {
  let cap: unknown = hostAttribute(host, path[0]);
  if (cap == null) cap = Object.hasOwn(host.stats, path[0]) ? host.stats[path[0]] : undefined;
  for (let i = 1; i < path.length && cap != null; i++) {
    if (typeof cap === 'string') cap = parseJson(cap);
    cap = isPyDict(cap) && Object.hasOwn(cap, path[i]) ? cap[path[i]] : undefined;
  }
  return cap ?? undefined;
}
