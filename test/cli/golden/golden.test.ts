import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../runCli.js';

/**
 * End-to-end scenarios: each folder holds hosts.json, request.json, a config (nova.conf or
 * config.json) and expected.json, whose numbers were derived by hand from Nova's semantics (the
 * `_derivation` lines say how; README.md lists them too). Weights compare to 1e-9; an elimination's
 * reason must contain the expected fragment (the wording is Placid's, the facts are the case's).
 */

const HERE = import.meta.dirname;
const CASES = readdirSync(HERE, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();

interface Ref {
  host: string;
  nodename: string;
  instance_index?: number;
}

interface Expected {
  exit: number;
  output: {
    selected: Ref[];
    alternates: Ref[];
    weighed: (Ref & { weight: number })[];
    eliminated: (Ref & { filter: string; reason_includes: string })[];
    error?: { type: string; message: string };
  };
}

function readJson<T>(path: string): T {
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}

/** The expected output as a matcher: weights to 9 decimals, reasons by fragment. */
function matcher({ output }: Expected) {
  const { eliminated, weighed, ...rest } = output;
  return {
    ...rest,
    weighed: weighed.map((w) => ({ ...w, weight: expect.closeTo(w.weight, 9) })),
    eliminated: eliminated.map(({ reason_includes, ...e }) => ({
      ...e,
      reason: expect.stringContaining(reason_includes),
    })),
  };
}

describe('placid schedule --json golden scenarios', () => {
  it('has the scenarios', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(10);
  });

  it.each(CASES)('%s', async (name) => {
    // Prepare
    const dir = join(HERE, name);
    const config = ['nova.conf', 'config.json'].map((f) => join(dir, f)).find((p) => existsSync(p));
    const expected = readJson<Expected>(join(dir, 'expected.json'));
    const args = ['schedule', '--hosts', join(dir, 'hosts.json'), '--request', join(dir, 'request.json')];
    // Act
    const run = await runCli([...args, ...(config ? ['--config', config] : []), '--json']);
    // Assess
    expect({ status: run.status, stderr: run.stderr, output: JSON.parse(run.stdout) }).toEqual({
      status: expected.exit,
      stderr: '',
      output: matcher(expected),
    });
  });
});
