import { pendingWeigher } from '../notImplemented.js';

export const IoOpsWeigher = pendingWeigher('IoOpsWeigher', 'nova.scheduler.weights.io_ops.IoOpsWeigher');
