import { pendingFilter } from '../notImplemented.js';

export const ComputeCapabilitiesFilter = pendingFilter('ComputeCapabilitiesFilter');
