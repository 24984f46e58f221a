import { pendingWeigher } from '../notImplemented.js';

export const DiskWeigher = pendingWeigher('DiskWeigher', 'nova.scheduler.weights.disk.DiskWeigher');
