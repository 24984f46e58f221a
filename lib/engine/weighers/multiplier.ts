import type { SchedulerConfig } from '../../config/options.js';
import type { HostState } from '../../model/hostState.js';
import type { EngineContext } from '../context.js';

type FilterSchedulerMultiplier = {
  [K in keyof SchedulerConfig['filter_scheduler']]: K extends `${string}_weight_multiplier` ? K : never;
}[keyof SchedulerConfig['filter_scheduler']];

/**
 * The multiplier pair every Nova weigher uses: `[filter_scheduler] <option>` from config, overridden
 * per host by the MIN of aggregate metadata `<aggregateKey>` (default: the option name).
 */
export function configMultiplier(
  option: FilterSchedulerMultiplier,
  aggregateKey: string = option,
): {
  multiplier(host: HostState, ctx: EngineContext): number;
  uniformMultiplier(ctx: EngineContext): boolean;
} {
  return {
    multiplier: (host, ctx) =>
      ctx.fleet.memberships.multiplier(host, aggregateKey, ctx.config.filter_scheduler[option]),
    uniformMultiplier: (ctx) => !ctx.fleet.aggregateKeys.has(aggregateKey),
  };
}
