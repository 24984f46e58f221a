/**
 * What one detector run leaves for the next (the item and its reads and writes live in
 * lib/store/detectorState.ts), and the merge-and-retry rule every change to it follows.
 */
import { PlacidError } from '../model/errors.js';
import type { DetectorState, DetectorStateRepository } from '../store/detectorState.js';

export { DETECTOR_STATE_ID, type DetectorState, type TrackedPlan } from '../store/detectorState.js';

const UPDATE_ATTEMPTS = 4;

/** Other runs kept writing the detector state between this run's read and its write. */
export class DetectorStateConflictError extends PlacidError {
  constructor(readonly attempts: number) {
    super(`the detector state changed under this run ${attempts} times in a row; the next run retries`);
  }
}

/**
 * Applies `change` to the state and writes it, re-reading and applying it again when another run
 * wrote first; `change` must therefore merge (add or remove entries), not overwrite. Starts from
 * `known` when given (skipping a read). Returns the state as written.
 * @throws DetectorStateConflictError when other runs kept winning
 */
export async function updateDetectorState(
  repo: DetectorStateRepository,
  change: (state: DetectorState) => Omit<DetectorState, 'version'>,
  known?: DetectorState,
): Promise<DetectorState> {
  let state = known ?? (await repo.read());
  for (let attempt = 1; attempt <= UPDATE_ATTEMPTS; attempt++) {
    const next = change(state);
    if (await repo.write(state, next)) return { ...next, version: state.version + 1 };
    state = await repo.read();
  }
  throw new DetectorStateConflictError(UPDATE_ATTEMPTS);
}
