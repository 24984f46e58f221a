/** Reads the collector's config file (YAML or JSON); relative paths in it are relative to the file. */
import { dirname, isAbsolute, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { readTextFile } from '../config/files.js';
import { ConfigError } from '../model/errors.js';
import { parseWith } from '../model/schema.js';
import { type CollectConfig, collectConfigSchema } from './config.js';

export async function loadCollectConfig(path: string): Promise<CollectConfig> {
  const text = await readTextFile(
    path,
    (reason, cause) => new ConfigError(`cannot read ${path}: ${reason}`, { cause }),
  );
  return parseCollectConfig(text, path);
}

/** Parses config text; `source` names it in errors and anchors its relative paths. */
export function parseCollectConfig(text: string, source: string): CollectConfig {
  let doc: unknown;
  try {
    // YAML is a superset of JSON, so one parser reads both.
    doc = parseYaml(text);
  } catch (error) {
    throw new ConfigError(`${source} is not YAML or JSON: ${(error as Error).message.split('\n')[0]}`);
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
    throw new ConfigError(`${source} must hold a mapping with at least prometheus.url`);
  }
  const config = parseWith(collectConfigSchema, doc, source);
  const base = dirname(source);
  const anchored = (p: string | undefined) => (p === undefined || isAbsolute(p) ? p : resolve(base, p));
  return {
    ...config,
    prometheus: {
      ...config.prometheus,
      tls: { ...config.prometheus.tls, ca_file: anchored(config.prometheus.tls.ca_file) },
    },
    credentials: { ...config.credentials, file: anchored(config.credentials.file) },
  };
}
