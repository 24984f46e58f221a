/** Reads the collector's config file (YAML or JSON); relative paths in it are relative to the file. */
import { dirname, isAbsolute, resolve } from 'node:path';
import { parseConfigMapping, readConfigFile } from '../config/configFile.js';
import { parseWith } from '../model/schema.js';
import { type CollectConfig, collectConfigSchema } from './config.js';

export async function loadCollectConfig(path: string): Promise<CollectConfig> {
  return parseCollectConfig(await readConfigFile(path), path);
}

/** Parses config text; `source` names it in errors and anchors its relative paths. */
export function parseCollectConfig(text: string, source: string): CollectConfig {
  const doc = parseConfigMapping(text, source, 'at least prometheus.url');
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
