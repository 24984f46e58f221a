import { pendingFilter } from '../notImplemented.js';

export const PciPassthroughFilter = pendingFilter('PciPassthroughFilter');
