import { pendingFilter } from '../notImplemented.js';

export const ServerGroupAntiAffinityFilter = pendingFilter('ServerGroupAntiAffinityFilter');
