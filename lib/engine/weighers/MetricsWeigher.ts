import { pendingWeigher } from '../notImplemented.js';

export const MetricsWeigher = pendingWeigher(
  'MetricsWeigher',
  'nova.scheduler.weights.metrics.MetricsWeigher',
);
