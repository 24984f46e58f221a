import type { PciStats } from '../../model/hostState.js';
import type { PciRequest } from '../../model/requestSpec.js';

/** `PciDeviceStats.support_requests`: true when the pools can satisfy every request. */
export function supportsRequests(_stats: PciStats, _requests: readonly PciRequest[]): boolean {
  return false;
}

/** `PciDeviceStats.apply_requests`: the pools after consuming the requests (null when they do not fit). */
export function applyRequests(_stats: PciStats, _requests: readonly PciRequest[]): PciStats | null {
  return null;
}
