import { pendingFilter } from '../notImplemented.js';

export const NumInstancesFilter = pendingFilter('NumInstancesFilter');
