import { pendingFilter } from '../notImplemented.js';

export const JsonFilter = pendingFilter('JsonFilter');
