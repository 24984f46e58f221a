import { pendingFilter } from '../notImplemented.js';

export const NUMATopologyFilter = pendingFilter('NUMATopologyFilter');
