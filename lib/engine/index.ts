/**
 * Placid's public engine API: what a custom filter or weigher needs, and nothing that can change
 * under it (plugin modules import from here only), and `createScheduler` for services that embed
 * the engine. (Built-in plug-ins import pluginApi.ts, the same
 * exports without createScheduler, so that loading them loads no schema library.)
 *
 * @example
 * // plugins/rackFilter.ts (listed in [filter_scheduler] available_filters)
 * import { defineFilter, PASS_ALL, schedulerHint } from '../lib/engine/index.js';
 *
 * export const RackFilter = defineFilter<string>({
 *   name: 'RackFilter',
 *   prepare: (spec) => {
 *     const rack = schedulerHint(spec, 'rack');
 *     return typeof rack === 'string' ? rack : PASS_ALL;
 *   },
 *   hostPasses: (host, _spec, rack) => host.extra.rack === rack,
 *   explain: (host, _spec, rack) => `host is in rack ${String(host.extra.rack)}, request asks for ${rack}`,
 * });
 */

export * from './pluginApi.js';
export {
  createScheduler,
  type EmbeddedSchedule,
  type EmbeddedScheduler,
  type PreparedFleet,
} from './service.js';
