import type { OptionSpec } from './options.js';

/** Option groups and their options: `OPTIONS`, or `OPTIONS` merged with groups added later. */
export type OptionTable = Readonly<Record<string, Readonly<Record<string, OptionSpec>>>>;

type ValueOf<S extends OptionSpec> = S['type'] extends 'bool'
  ? boolean
  : S['type'] extends 'int' | 'float'
    ? S['default'] extends null
      ? number | null
      : number
    : S['type'] extends 'list' | 'multistring'
      ? string[]
      : S['default'] extends null
        ? string | null
        : string;

/** The resolved configuration for a table: every group and option with its value (defaults filled in). */
export type ConfigOf<T extends OptionTable> = {
  -readonly [G in keyof T]: { -readonly [O in keyof T[G]]: ValueOf<T[G][O]> };
} & { extra: Record<string, Record<string, string>> };

/**
 * Combines option tables so later work can register its own groups (or options in an existing group)
 * and resolve them with the same loader. Registering the same option twice is a programming error.
 *
 * @example
 * const TABLE = mergeOptionTables(OPTIONS, { rebalance: { steal_threshold: { type: 'float', default: 10, help: '…' } } });
 * const config = resolveConfig(doc, 'nova.conf', TABLE); // config.rebalance.steal_threshold: number
 */
export function mergeOptionTables<A extends OptionTable, B extends OptionTable>(base: A, more: B): A & B {
  const out: Record<string, Record<string, OptionSpec>> = {};
  for (const table of [base, more]) {
    for (const [group, options] of Object.entries(table)) {
      out[group] ??= {};
      const merged = out[group];
      for (const [name, spec] of Object.entries(options)) {
        if (name in merged) throw new Error(`option [${group}] ${name} is registered twice`);
        merged[name] = spec;
      }
    }
  }
  return out as A & B;
}

/** A fresh configuration holding every default of `table` (arrays copied, so callers may mutate). */
export function defaultsFor<T extends OptionTable>(table: T): ConfigOf<T> {
  // `extra` holds operator-chosen group and option names: null prototypes keep `[__proto__]` a name.
  const out: Record<string, Record<string, unknown>> = { extra: Object.create(null) };
  for (const [group, options] of Object.entries(table)) {
    out[group] = {};
    for (const [name, spec] of Object.entries(options)) {
      out[group][name] = Array.isArray(spec.default) ? [...spec.default] : spec.default;
    }
  }
  return out as ConfigOf<T>;
}
