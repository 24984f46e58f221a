import { pendingFilter } from '../notImplemented.js';

export const IsolatedHostsFilter = pendingFilter('IsolatedHostsFilter');
