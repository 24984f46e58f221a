import { pendingFilter } from '../notImplemented.js';

export const SameHostFilter = pendingFilter('SameHostFilter');
