/**
 * Real nova.conf files carry far more than the scheduler options Placid models. These tables say which
 * unknown names are accepted (and kept in `config.extra`) instead of rejected as typos.
 */

/** Groups where Nova has hundreds of options: any name is accepted unless it looks like a typo of a known one. */
export const OPEN_GROUPS: ReadonlySet<string> = new Set(['DEFAULT', 'workarounds']);

/** Nova options (current or recently removed) in Placid's strict groups that do not affect placement. */
export const IGNORED_NOVA_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  scheduler: [
    'driver',
    'periodic_task_interval',
    'discover_hosts_in_cells_interval',
    'workers',
    'query_placement_for_availability_zone',
  ],
  filter_scheduler: ['use_baremetal_filters', 'baremetal_enabled_filters'],
};
