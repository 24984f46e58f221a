import { pendingFilter } from '../notImplemented.js';

export const MetricsFilter = pendingFilter('MetricsFilter');
