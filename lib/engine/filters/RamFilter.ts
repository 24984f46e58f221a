import { pendingFilter } from '../notImplemented.js';

export const RamFilter = pendingFilter('RamFilter');
