import { extname } from 'node:path';
import { ConfigError } from '../model/errors.js';
import { MAX_CONFIG_BYTES, readTextFile } from './files.js';
import { IniValues, parseIni } from './ini.js';
import { OPTIONS, type OptionSpec, type SchedulerConfig } from './options.js';
import { IGNORED_NOVA_OPTIONS, OPEN_GROUPS } from './passthrough.js';
import { didYouMean, nearest } from './suggest.js';
import { type ConfigOf, defaultsFor, type OptionTable } from './table.js';
import { BadValue, expected, parseOptionValue } from './values.js';

/** A config document before resolution: group → option → raw value (INI IniValues or native JSON). */
export type ConfigDocument = Record<string, Record<string, unknown>>;

/**
 * Reads a scheduler config: `.json` as `{"filter_scheduler": {...}, ...}`, anything else as
 * nova.conf-style INI. Errors name the file (and line, for INI).
 *
 * @example
 * const config = await loadConfig('/etc/nova/nova.conf');
 */
export async function loadConfig(path: string): Promise<SchedulerConfig>;
export async function loadConfig<T extends OptionTable>(path: string, table: T): Promise<ConfigOf<T>>;
export async function loadConfig(path: string, table: OptionTable = OPTIONS): Promise<object> {
  const text = await readTextFile(
    path,
    (reason, cause) => new ConfigError(`cannot read config file ${path}: ${reason}`, { cause }),
    MAX_CONFIG_BYTES,
  );
  const doc = extname(path).toLowerCase() === '.json' ? parseJsonConfig(text, path) : parseIni(text, path);
  return resolveConfig(doc, path, table);
}

/** Parses a JSON config document, checking only its outer shape (resolveConfig checks the rest). */
export function parseJsonConfig(text: string, source: string): ConfigDocument {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`${source}: not valid JSON (${(err as Error).message})`, { cause: err });
  }
  if (!isRecord(doc)) {
    throw new ConfigError(`${source}: expected an object of option groups, e.g. {"filter_scheduler": {...}}`);
  }
  return doc as ConfigDocument;
}

/**
 * Turns a config document into a full configuration: values parsed per option type, Nova's defaults
 * for everything unset, groups the table does not know kept in `extra`. Pass a table extended with
 * `mergeOptionTables` to resolve groups registered later (e.g. `[rebalance]`).
 */
export function resolveConfig(doc: ConfigDocument, source: string): SchedulerConfig;
export function resolveConfig<T extends OptionTable>(
  doc: ConfigDocument,
  source: string,
  table: T,
): ConfigOf<T>;
export function resolveConfig(doc: ConfigDocument, source: string, table: OptionTable = OPTIONS): object {
  const config = defaultsFor(table);
  const values = config as unknown as Record<string, Record<string, unknown>>;
  for (const [group, entries] of Object.entries(doc)) {
    if (!isRecord(entries)) throw new ConfigError(`${source}: [${group}] must be an object of options`);
    const options = Object.hasOwn(table, group) ? table[group] : undefined;
    if (!options) {
      rejectMistypedGroup(group, table, source);
      config.extra[group] = extraValues(entries);
      continue;
    }
    for (const [name, raw] of Object.entries(entries)) {
      const where = raw instanceof IniValues ? `${source}:${raw.lastLine}` : source;
      const spec = Object.hasOwn(options, name) ? options[name] : undefined;
      if (spec) {
        values[group][name] = optionValue(raw, spec, `${where}: [${group}] ${name}`);
      } else if (isTolerated(group, name, options)) {
        config.extra[group] ??= Object.create(null);
        config.extra[group][name] = extraValue(raw);
      } else {
        throw new ConfigError(`${where}: [${group}] unknown option ${name}${hint(name, options)}`);
      }
    }
  }
  return config;
}

function optionValue(raw: unknown, spec: OptionSpec, label: string): unknown {
  const input = raw instanceof IniValues ? (spec.type === 'multistring' ? raw.values : raw.last) : raw;
  try {
    return parseOptionValue(input, spec);
  } catch (err) {
    if (!(err instanceof BadValue)) throw err;
    const shown = raw instanceof IniValues ? JSON.stringify(raw.last) : JSON.stringify(raw);
    throw new ConfigError(`${label} = ${shown}: expected ${expected(spec)}`);
  }
}

function isTolerated(group: string, name: string, options: Readonly<Record<string, OptionSpec>>): boolean {
  if (Object.hasOwn(IGNORED_NOVA_OPTIONS, group) && IGNORED_NOVA_OPTIONS[group].includes(name)) return true;
  return OPEN_GROUPS.has(group) && nearest(name, Object.keys(options)) === undefined;
}

function hint(name: string, options: Readonly<Record<string, OptionSpec>>): string {
  return didYouMean(name, Object.keys(options)) || ' (not a known option of this group)';
}

/** `[filter_schedular]` or `[default]` would otherwise be silently ignored as a foreign group. */
function rejectMistypedGroup(group: string, table: OptionTable, source: string): void {
  const near = nearest(group, Object.keys(table));
  if (near !== undefined) {
    throw new ConfigError(`${source}: unknown group [${group}] (did you mean [${near}]?)`);
  }
}

function extraValues(entries: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  for (const [k, v] of Object.entries(entries)) out[k] = extraValue(v);
  return out;
}

function extraValue(raw: unknown): string {
  if (raw instanceof IniValues) return raw.last;
  return typeof raw === 'string' ? raw : JSON.stringify(raw);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof IniValues);
}

export { mergeOptionTables } from './table.js';
