/**
 * A full garbage collection on demand, without starting Node with --expose-gc: benches take a
 * memory baseline of what is live, not of what the collector has yet to free.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

/** Collects garbage, then returns the live heap in bytes. */
export function liveHeap(): number {
  collect();
  return process.memoryUsage().heapUsed;
}
