import { pendingWeigher } from '../notImplemented.js';

export const CPUWeigher = pendingWeigher('CPUWeigher', 'nova.scheduler.weights.cpu.CPUWeigher');
