import { pendingFilter } from '../notImplemented.js';

export const AllHostsFilter = pendingFilter('AllHostsFilter');
