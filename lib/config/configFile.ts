/** A service's own config file (the collector's, the agent's): YAML or JSON holding one mapping. */
import { parse as parseYaml } from 'yaml';
import { ConfigError } from '../model/errors.js';
import { MAX_CONFIG_BYTES, readTextFile } from './files.js';

/** The file's text; a file that cannot be read is a ConfigError naming it and why. */
export function readConfigFile(path: string): Promise<string> {
  return readTextFile(
    path,
    (reason, cause) => new ConfigError(`cannot read ${path}: ${reason}`, { cause }),
    MAX_CONFIG_BYTES,
  );
}

/**
 * Parses config text into its top-level mapping; `source` names it in errors and `mustHold` says what
 * the mapping needs ("at least prometheus.url"), so an empty or scalar file gets a useful error.
 */
export function parseConfigMapping(text: string, source: string, mustHold: string): object {
  let doc: unknown;
  try {
    // YAML is a superset of JSON, so one parser reads both.
    doc = parseYaml(text);
  } catch (error) {
    throw new ConfigError(`${source} is not YAML or JSON: ${(error as Error).message.split('\n')[0]}`);
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
    throw new ConfigError(`${source} must hold a mapping with ${mustHold}`);
  }
  return doc;
}
