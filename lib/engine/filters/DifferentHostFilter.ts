import { pendingFilter } from '../notImplemented.js';

export const DifferentHostFilter = pendingFilter('DifferentHostFilter');
