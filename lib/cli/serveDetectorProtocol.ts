/** What `placid serve` and its detector thread say to each other (serveDetectorThread.ts, serveDetectorWorker.ts). */

import type { TableNames } from '../store/tables.js';
import type { WorkflowFiles } from './workflowOptions.js';

/** Everything the thread needs, all of it cloneable: where the store is, and the detector's files. */
export interface DetectorThreadData extends WorkflowFiles {
  endpoint: string;
  tableNames: TableNames;
  config?: string;
}

/** `run`: one detector run (rounds until nothing is sent); `close`: end the thread (sent between runs). */
export type ToDetector = { type: 'run' } | { type: 'close' };

/** `ready` once the config is read; `ran` after each run, with its lines, or why it failed. */
export type FromDetector = { type: 'ready' } | { type: 'ran'; lines: string[]; error?: string };
