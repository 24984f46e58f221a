import { ALL_ZERO, defineWeigher } from '../weigher.js';
import { configMultiplier } from './multiplier.js';

/**
 * For a cross-cell move, prefers hosts in the requested (source) cell: 1 inside it, -1 elsewhere.
 * Any other request weighs every host 0, so the weigher is skipped.
 */
export const CrossCellWeigher = defineWeigher<string>({
  name: 'CrossCellWeigher',
  novaPath: 'nova.scheduler.weights.cross_cell.CrossCellWeigher',
  prepare: (spec) => {
    const dest = spec.requested_destination;
    return dest?.cell && dest.allow_cross_cell_move ? dest.cell : ALL_ZERO;
  },
  weigh: (host, _spec, preferredCell) => (host.cell_uuid === preferredCell ? 1 : -1),
  ...configMultiplier('cross_cell_move_weight_multiplier'),
});
