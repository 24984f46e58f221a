/** Fault injection for the fake OpenStack: per route, an error status or a hang, for N calls. */
import type { NovaRouteName } from './nova.js';
import type { PlacementRouteName } from './placementRoutes.js';

export type FakeRouteName = 'auth' | NovaRouteName | PlacementRouteName;

interface FaultCommon {
  /** Calls affected before the fault clears itself. Default: every call until clearFaults(). */
  times?: number;
  /** Apply the call's effect first, then fail: a "partial effect" (e.g. the migration did start). */
  afterEffect?: boolean;
  /** Calls that pass untouched before the fault starts (e.g. fail the second page of a listing). */
  skip?: number;
}

export type FakeFault =
  | (FaultCommon & {
      kind: 'status';
      /** e.g. 500, 503, 409, 404, 429. */
      status: number;
      message?: string;
      retryAfterSeconds?: number;
    })
  /** Never answer: the client's timeout has to fire. */
  | (FaultCommon & { kind: 'hang' });

export class FaultBook {
  private readonly faults = new Map<FakeRouteName, FakeFault & { remaining: number; skipped: number }>();

  set(route: FakeRouteName, fault: FakeFault): void {
    const remaining = fault.times ?? Number.POSITIVE_INFINITY;
    if (!(remaining > 0)) throw new RangeError(`fault times must be > 0, got ${fault.times}`);
    this.faults.set(route, { ...fault, remaining, skipped: 0 });
  }

  clear(): void {
    this.faults.clear();
  }

  /** The fault for this call, if any, counting it against `times`. */
  take(route: FakeRouteName): FakeFault | undefined {
    const fault = this.faults.get(route);
    if (!fault) return undefined;
    if (fault.skipped < (fault.skip ?? 0)) {
      fault.skipped += 1;
      return undefined;
    }
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.faults.delete(route);
    return fault;
  }
}
