import { pendingFilter } from '../notImplemented.js';

export const IoOpsFilter = pendingFilter('IoOpsFilter');
