import { pendingFilter } from '../notImplemented.js';

export const SimpleCIDRAffinityFilter = pendingFilter('SimpleCIDRAffinityFilter');
