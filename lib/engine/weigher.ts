import type { HostState } from '../model/hostState.js';
import type { RequestSpec } from '../model/requestSpec.js';
import type { EngineContext } from './context.js';

/** Returned by `prepare` when every host's raw weight would be 0, so the weigher adds nothing. */
export const ALL_ZERO: unique symbol = Symbol.for('placid.ALL_ZERO');
export type AllZero = typeof ALL_ZERO;

/**
 * A host weigher: Nova's `_weigh_object` (a raw weight) and `weight_multiplier`. The engine clamps
 * to `minval`/`maxval`, normalises over all weighed hosts, multiplies and sums, as `nova/weights.py`.
 *
 * @example
 * export const freeVcpus: HostWeigher = {
 *   name: 'FreeVcpusWeigher',
 *   weigh: (host) => host.vcpus_total - host.vcpus_used,
 *   multiplier: () => 1,
 * };
 */
export interface HostWeigher<S = unknown> {
  /** Nova's class name (`RAMWeigher`); `nova.scheduler.weights.ram.RAMWeigher` also resolves to it. */
  readonly name: string;
  /** Dotted Nova path, for configs that name weighers that way. */
  readonly novaPath?: string;
  /** Raw weights below minval are raised to it, and minval fixes the bottom of the normalisation range. */
  readonly minval?: number;
  readonly maxval?: number;
  /** Once per weighing; ALL_ZERO skips the weigher (every raw weight would be 0). */
  prepare?(spec: RequestSpec, ctx: EngineContext): S | AllZero;
  /** The raw weight of one host. */
  weigh(host: HostState, spec: RequestSpec, state: S, ctx: EngineContext): number;
  /** The multiplier for this host (config value, or the MIN over aggregate overrides). */
  multiplier(host: HostState, ctx: EngineContext): number;
  /**
   * True when the multiplier cannot vary by host for this fleet (no aggregate carries the
   * override key); lets the engine read it once instead of once per host.
   */
  uniformMultiplier?(ctx: EngineContext): boolean;
  /** True when `weigh` can raise for a host (so it must run even when its multiplier is 0). */
  readonly mayRaise?: boolean;
}

export function defineWeigher<S = undefined>(weigher: HostWeigher<S>): HostWeigher<S> {
  return weigher;
}
