/**
 * The compute API microversion Placid asks for. 2.65 (the maximum of Rocky) is the lowest that has
 * everything a managed live migration needs, so it works on the widest range of clouds (a cloud
 * answers 406 to a microversion newer than it knows):
 * - 2.22–2.24: force-complete, list and abort a server's in-progress migrations;
 * - 2.25: `block_migration: "auto"` (and `disk_over_commit` gone);
 * - 2.30: a requested host is checked by the scheduler unless `force` is sent (Placid never sends it);
 * - 2.34: pre-migration checks run asynchronously; failures show up as a migration in `error`;
 * - 2.59: migrations carry a `uuid`;
 * - 2.65: abort works on `queued` and `preparing` migrations too, so a deadline can always abort.
 * Later versions change nothing these calls read (2.68 only removes `force`; 2.80 adds user and
 * project ids to migrations).
 */
import { ConfigError } from '../../model/errors.js';

export const NOVA_DEFAULT_MICROVERSION = '2.65';

/** Below this `block_migration: "auto"` is rejected. */
export const NOVA_MIN_MICROVERSION = '2.25';

/** Compares `2.x` microversions numerically (2.9 < 2.25). */
export function compareMicroversions(a: string, b: string): number {
  const [aMajor, aMinor] = a.split('.').map(Number);
  const [bMajor, bMinor] = b.split('.').map(Number);
  return aMajor - bMajor || aMinor - bMinor;
}

/** Returns `version` if it is `2.N` with N >= 25, else throws a ConfigError saying why. */
export function assertMicroversion(version: string): string {
  if (!/^2\.\d+$/.test(version)) {
    throw new ConfigError(`compute microversion must look like "2.65", got ${JSON.stringify(version)}`);
  }
  if (compareMicroversions(version, NOVA_MIN_MICROVERSION) < 0) {
    throw new ConfigError(
      `compute microversion ${version} is too old: block_migration "auto" needs ${NOVA_MIN_MICROVERSION} or later`,
    );
  }
  return version;
}
