import { pendingFilter } from '../notImplemented.js';

export const DiskFilter = pendingFilter('DiskFilter');
