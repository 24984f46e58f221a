import { pendingFilter } from '../notImplemented.js';

export const AggregateDiskFilter = pendingFilter('AggregateDiskFilter');
