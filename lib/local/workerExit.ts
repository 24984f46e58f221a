import { once } from 'node:events';
import type { Worker } from 'node:worker_threads';

/** How long a thread asked to close may take before it is stopped. */
const CLOSE_GRACE_MS = 5_000;

/**
 * Asks a worker thread to finish (`ask` posts whatever message it understands) and waits for it
 * to exit; one that is still running after the grace period is terminated, so closing never hangs.
 */
export async function closeWorker(worker: Worker, ask: () => void, graceMs = CLOSE_GRACE_MS): Promise<void> {
  const exited = once(worker, 'exit');
  ask();
  const timer = setTimeout(() => void worker.terminate(), graceMs);
  try {
    await exited;
  } finally {
    clearTimeout(timer);
  }
}
