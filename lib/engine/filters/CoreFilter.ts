import { pendingFilter } from '../notImplemented.js';

export const CoreFilter = pendingFilter('CoreFilter');
