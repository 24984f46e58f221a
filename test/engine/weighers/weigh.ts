import type { SchedulerConfig } from '../../../lib/config/options.js';
import { ALL_ZERO, type HostWeigher } from '../../../lib/engine/weigher.js';
import type { HostStateInput } from '../../../lib/model/hostSchema.js';
import type { HostState } from '../../../lib/model/hostState.js';
import type { RequestSpec } from '../../../lib/model/requestSpec.js';
import { weighList } from '../../helpers/engineRuns.js';
import { makeConfig, makeContext, makeHost, makeSpec } from '../../helpers/factories.js';

/** Hosts h0, h1, … built from the given fields. */
export function hostsWith(inputs: Partial<HostStateInput>[]): HostState[] {
  return inputs.map((input, i) => makeHost({ host: `h${i}`, nodename: `h${i}`, ...input }));
}

/** What the weigher itself reports per host (its `_weigh_object`), or 'ALL_ZERO' when prepare skips it. */
export function rawWeights<S>(
  weigher: HostWeigher<S>,
  hosts: HostState[],
  spec: RequestSpec = makeSpec(),
  config: SchedulerConfig = makeConfig(),
): number[] | 'ALL_ZERO' {
  const ctx = makeContext(config, hosts);
  const state = weigher.prepare ? weigher.prepare(spec, ctx) : (undefined as S);
  if (state === ALL_ZERO) return 'ALL_ZERO';
  return hosts.map((host) => weigher.weigh(host, spec, state, ctx));
}

/** Final weights through the engine: clamp, normalise over all hosts, multiply per host. */
export function finalWeights<S>(
  weigher: HostWeigher<S>,
  hosts: HostState[],
  spec: RequestSpec = makeSpec(),
  config: SchedulerConfig = makeConfig(),
): number[] {
  const ctx = makeContext(config, hosts);
  return Array.from(weighList([weigher as HostWeigher<unknown>], hosts, spec, ctx));
}
