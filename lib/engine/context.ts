import type { SchedulerConfig } from '../config/options.js';
import type { Fleet } from './fleet.js';

/** What a filter or weigher may read besides the host and the request. */
export interface EngineContext {
  readonly config: SchedulerConfig;
  /** The decision's clock (ComputeFilter liveness, time-based custom filters). */
  readonly now: Date;
  /** Which instance of a multi-create is being placed (0 for the first). */
  readonly index: number;
  readonly fleet: Fleet;
}
