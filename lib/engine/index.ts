/**
 * Placid's public engine API: what a custom filter or weigher needs, and nothing that can change
 * under it (plugin modules import from here only), and `createScheduler` for services that embed
 * the engine. Placid's own filters live above the engine (lib/rebalance/filters, lib/plugins) and
 * are passed in as built-ins: `createScheduler(config, withPlacidFilters())`. Built-in plug-ins
 * import pluginApi.ts, the same exports without createScheduler, so loading them loads no schema
 * library.
 *
 * @example
 * // plugins/rackFilter.ts (listed in [filter_scheduler] available_filters)
 * import { defineFilter, PASS, PASS_ALL, reject, schedulerHint } from '../lib/engine/index.js';
 *
 * const OTHER_RACK = reject<string>((host, _spec, rack) => `host is in rack ${String(host.extra.rack)}, request asks for ${rack}`);
 *
 * export const RackFilter = defineFilter<string>({
 *   name: 'RackFilter',
 *   prepare: (spec) => {
 *     const rack = schedulerHint(spec, 'rack');
 *     return typeof rack === 'string' ? rack : PASS_ALL;
 *   },
 *   check: (host, _spec, rack) => (host.extra.rack === rack ? PASS : OTHER_RACK),
 * });
 */

export * from './pluginApi.js';
export {
  createScheduler,
  type EmbeddedSchedule,
  type EmbeddedScheduler,
  type PreparedFleet,
} from './service.js';
