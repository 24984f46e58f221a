/** Readable names for the planner's skip codes, shared by `placid plan` and the simulation report. */
import type { SkipCode } from '../model/plan.js';

export const SKIP_TITLES: Readonly<Record<SkipCode, string>> = {
  recovers_without_moving: 'Recovers without moving',
  no_destination: 'No destination',
  cooldown: 'Cooling down',
  budget: 'Over the migration budget',
  blackout: 'Blackout window',
  too_little_benefit: 'Too little benefit',
  block_migration_too_large: 'Block migration too large',
  not_converging: 'Would not converge',
  no_data: 'No usable data',
};
