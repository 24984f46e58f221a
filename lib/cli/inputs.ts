import { dirname, resolve } from 'node:path';
import { MAX_CONFIG_BYTES, MAX_INPUT_BYTES, readTextFile } from '../config/files.js';
import { loadConfig } from '../config/load.js';
import { defaultConfig, type SchedulerConfig } from '../config/options.js';
import { parseHostStates } from '../model/hostSchema.js';
import type { HostState } from '../model/hostState.js';
import { parseRequestSpec } from '../model/requestSchema.js';
import type { RequestSpec } from '../model/requestSpec.js';
import { InputError } from './errors.js';

/** A JSON file's content; the error names the file and what is wrong. */
export async function readJsonFile(path: string, what: string, cap = MAX_INPUT_BYTES): Promise<unknown> {
  return parseJsonText(await readTextFile(path, cannotRead(path, what), cap), path);
}

function cannotRead(path: string, what: string): (reason: string, cause: unknown) => Error {
  return (reason, cause) => new InputError(`cannot read ${what} file ${path}: ${reason}`, { cause });
}

function parseJsonText(text: string, path: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new InputError(`${path}: not valid JSON (${(err as Error).message})`, { cause: err });
  }
}

/** HOSTS.json: an array of host states (a pipe such as /dev/stdin works too). */
export async function readHosts(path: string): Promise<HostState[]> {
  return parseHostStates(await readJsonFile(path, 'hosts'), path);
}

/** REQUEST.json: one request spec. `doc`: the file's JSON when the caller has it already (errors still name `path`). */
export async function readRequest(path: string, doc?: unknown): Promise<RequestSpec> {
  doc ??= await readJsonFile(path, 'request', MAX_CONFIG_BYTES);
  return parseRequestSpec(doc, path);
}

export interface LoadedConfig {
  config: SchedulerConfig;
  /** Where plugin module paths in the config are resolved from: the config file's folder. */
  baseDir: string;
}

/** The config file (INI or JSON), or Nova's defaults when none is given. */
export async function readConfig(path: string | undefined): Promise<LoadedConfig> {
  if (path === undefined) return { config: defaultConfig(), baseDir: process.cwd() };
  return { config: await loadConfig(path), baseDir: dirname(resolve(path)) };
}
