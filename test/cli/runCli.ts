import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { main } from '../../lib/cli/main.js';

export interface CliRun {
  status: number;
  stdout: string;
  stderr: string;
}

/** Runs `placid <argv>` in-process, capturing what it writes. */
export async function runCli(argv: string[]): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const status = await main(argv, {
    // Large JSON comes as UTF-8 pieces of whole characters (CliIO).
    stdout: {
      write: (s: string | Uint8Array) => (stdout += typeof s === 'string' ? s : Buffer.from(s).toString()),
    },
    stderr: { write: (s: string) => (stderr += s) },
  });
  return { status, stdout, stderr };
}

/**
 * A fresh temp folder with a `write(name, content)` that returns the file's path (objects become
 * JSON); a name with folders in it (`lib/model/host.ts`) makes them.
 */
export function tempFiles(prefix = 'placid-cli-') {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return {
    dir,
    write(name: string, content: unknown): string {
      const path = join(dir, name);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
      return path;
    },
  };
}

/** A config naming only plugins that exist, with the pre-filter off so tests do not depend on it. */
export const TEST_CONFIG = `[filter_scheduler]
enabled_filters = AvailabilityZoneFilter, ComputeFilter
weight_classes = RAMWeigher

[placid]
placement_prefilter = false
`;
