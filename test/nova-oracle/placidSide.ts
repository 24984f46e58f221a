import { resolveConfig } from '../../lib/config/load.js';
import type { EngineContext } from '../../lib/engine/context.js';
import { PASS, PASS_ALL } from '../../lib/engine/filter.js';
import { NOVA_FILTERS } from '../../lib/engine/filters/index.js';
import { Fleet } from '../../lib/engine/fleet.js';
import { NOVA_WEIGHERS } from '../../lib/engine/weighers/index.js';
import { parseHostStates } from '../../lib/model/hostSchema.js';
import type { HostState } from '../../lib/model/hostState.js';
import { parseRequestSpec } from '../../lib/model/requestSchema.js';
import { isRebuild, type RequestSpec } from '../../lib/model/requestSpec.js';
import { weighList } from '../helpers/engineRuns.js';
import type { OracleCase, Verdict } from './case.js';
import type { OracleAnswer } from './oracleProcess.js';

function errorOf(err: unknown): string {
  return `error:${err instanceof Error ? err.name : 'Error'}`;
}

/**
 * Placid's answer to a case, shaped like the oracle's: each filter's verdict per host (as Nova's
 * `_filter_one`: the rebuild short-cut, then `host_passes`), each weigher's weight alone
 * (normalised and multiplied, as Nova's handler with that one weigher), and under `*` the total
 * of every weigher of the case together.
 */
export function placidAnswer(c: OracleCase): OracleAnswer {
  let hosts: HostState[];
  let spec: RequestSpec;
  let ctx: EngineContext;
  try {
    hosts = parseHostStates(c.hosts);
    spec = parseRequestSpec(c.request);
    const config = resolveConfig(c.config, 'case');
    ctx = { config, now: new Date(), index: 0, fleet: Fleet.from(hosts) };
  } catch (err) {
    // Placid refusing input Nova takes is a disagreement on every verdict.
    const refused = `refused:${(err as Error).message}`;
    return {
      id: c.id,
      filters: Object.fromEntries(c.filters.map((f) => [f, c.hosts.map(() => refused)])),
      weighers: Object.fromEntries(c.weighers.map((w) => [w, refused])),
    };
  }
  hosts = ctx.fleet.hosts.slice();
  const filters = Object.fromEntries(c.filters.map((f) => [f, filterVerdicts(f, hosts, spec, ctx)]));
  const weighers = Object.fromEntries(c.weighers.map((w) => [w, weights([w], hosts, spec, ctx)]));
  if (c.weighers.length > 0) weighers['*'] = weights(c.weighers, hosts, spec, ctx);
  return { id: c.id, filters, weighers };
}

function filterVerdicts(name: string, hosts: HostState[], spec: RequestSpec, ctx: EngineContext): Verdict[] {
  const filter = NOVA_FILTERS[name];
  if (!filter) throw new Error(`Placid has no filter ${name}`);
  if (isRebuild(spec) && !filter.runOnRebuild) return hosts.map(() => true);
  let state: unknown;
  try {
    state = filter.prepare ? filter.prepare(spec, ctx) : undefined;
  } catch (err) {
    return hosts.map(() => errorOf(err));
  }
  if (state instanceof Promise)
    throw new Error(`${name}.prepare is async; the parity test runs sync filters`);
  if (state === PASS_ALL) return hosts.map(() => true);
  return hosts.map((h) => {
    try {
      return filter.check(h, spec, state, ctx) === PASS;
    } catch (err) {
      return errorOf(err);
    }
  });
}

/** The weighers' total per host (one weigher: its own weight), as Nova's handler sums them. */
function weights(
  names: string[],
  hosts: HostState[],
  spec: RequestSpec,
  ctx: EngineContext,
): number[] | string {
  const weighers = names.map((name) => {
    const weigher = NOVA_WEIGHERS[name];
    if (!weigher) throw new Error(`Placid has no weigher ${name}`);
    return weigher;
  });
  try {
    return Array.from(weighList(weighers, hosts, spec, ctx));
  } catch (err) {
    return errorOf(err);
  }
}
