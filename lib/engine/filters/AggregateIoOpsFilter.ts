import { pendingFilter } from '../notImplemented.js';

export const AggregateIoOpsFilter = pendingFilter('AggregateIoOpsFilter');
