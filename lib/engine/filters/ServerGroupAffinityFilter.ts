import { pendingFilter } from '../notImplemented.js';

export const ServerGroupAffinityFilter = pendingFilter('ServerGroupAffinityFilter');
