import { dirname, resolve } from 'node:path';
import {
  isRegularFile,
  MAX_CONFIG_BYTES,
  MAX_INPUT_BYTES,
  readFileBytes,
  readFileInPieces,
  readTextFile,
} from '../config/files.js';
import { loadConfig } from '../config/load.js';
import { defaultConfig, type SchedulerConfig } from '../config/options.js';
import { fastHostStatesOfStream } from '../model/hostFastPath.js';
import type { HostState } from '../model/hostState.js';
import { readFrom } from '../model/jsonArrayObjects.js';
import { fastRequestSpec } from '../model/requestFastPath.js';
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

/**
 * HOSTS.json: an array of host states. Files of the common shape are parsed a batch of hosts at a
 * time and never load zod (the fast path gives zod's answer). Anything else is parsed whole:
 * JSON.parse words what is not JSON, zod decides and words the rest.
 */
export async function readHosts(path: string): Promise<HostState[]> {
  const fail = cannotRead(path, 'hosts');
  if (isRegularFile(path)) {
    // Read in pieces, never whole; read again whole only when the fast path declines.
    const fast = readFileInPieces(path, fail, (read) => fastHostStatesOfStream(read, path));
    return fast ?? parsedHosts(await readTextFile(path, fail), path);
  }
  // A pipe or a device (--hosts /dev/stdin) can be read only once: whole, and both paths read
  // the same bytes.
  const json = await readFileBytes(path, fail);
  return fastHostStatesOfStream(readFrom(json), path) ?? parsedHosts(json.toString('utf8'), path);
}

/** Host states of a whole file's text, through JSON.parse and zod. */
async function parsedHosts(text: string, path: string): Promise<HostState[]> {
  const doc = parseJsonText(text, path);
  const { parseHostStates } = await import('../model/hostSchema.js');
  return parseHostStates(doc, path);
}

/**
 * REQUEST.json: one request spec (as readHosts: zod only when the fast path declines). `doc`: the
 * file's JSON when the caller has it already (errors still name `path`).
 */
export async function readRequest(path: string, doc?: unknown): Promise<RequestSpec> {
  doc ??= await readJsonFile(path, 'request', MAX_CONFIG_BYTES);
  const fast = fastRequestSpec(doc, path);
  if (fast) return fast;
  const { parseRequestSpec } = await import('../model/requestSchema.js');
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
