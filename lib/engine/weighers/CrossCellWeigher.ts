import { pendingWeigher } from '../notImplemented.js';

export const CrossCellWeigher = pendingWeigher(
  'CrossCellWeigher',
  'nova.scheduler.weights.cross_cell.CrossCellWeigher',
);
