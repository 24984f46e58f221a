import { pyFloat } from '../pyStrings.js';

/**
 * Nova's `parse_options(opts, sep='=', converter=float)` for `name=ratio` list options
 * (`[metrics] weight_setting`, `[filter_scheduler] image_props_weight_setting`). Each entry is split
 * on its first '='; the key is kept as written (not stripped) and the value read with Python's
 * float(). Entries without '=', with an empty key, or with an unparsable value are dropped, as Nova
 * drops them (after a warning). Order and repeats are kept.
 *
 * @example
 * parseOptions(['cpu.frequency=1.0', 'bad', 'cpu.idle.time = -0.5']);
 * // [['cpu.frequency', 1], ['cpu.idle.time ', -0.5]]
 */
export function parseOptions(entries: readonly string[]): [string, number][] {
  const parsed: [string, number][] = [];
  for (const entry of entries) {
    const sep = entry.indexOf('=');
    if (sep <= 0) continue;
    const value = pyFloat(entry.slice(sep + 1));
    if (value === undefined) continue;
    parsed.push([entry.slice(0, sep), value]);
  }
  return parsed;
}
