/**
 * One on-disk store, several placid processes writing at once: nothing lost, and a writer killed
 * mid-write (SIGKILL) leaves a store that still opens, reads and takes the rest.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { lockHolder } from '../../lib/local/dataDirLock.js';
import { buildCli, runPlacid, startPlacid } from '../helpers/builtCli.js';
import { eventually } from '../helpers/eventually.js';
import { nodeMessage } from '../ingest/harness.js';

const temp = mkdtempSync(join(tmpdir(), 'placid-shared-'));

/** A JSON Lines file of `count` host reports named `<prefix>-<i>`, each with two VMs. */
function reports(prefix: string, count: number): string {
  const path = join(temp, `${prefix}.jsonl`);
  writeFileSync(path, Array.from({ length: count }, (_, i) => nodeMessage(`${prefix}-${i}`, 2)).join('\n'));
  return path;
}

function storedHosts(dataDir: string): string[] {
  const run = runPlacid(['fleet', '--json', '--data-dir', dataDir]);
  expect(run.stderr).toBe('');
  const view = JSON.parse(run.stdout) as { zones: { hosts: { host: string }[] }[] };
  return view.zones.flatMap((z) => z.hosts.map((h) => h.host));
}

describe('the store server', () => {
  beforeAll(() => buildCli(), 60_000);

  it('keeps every report of two placid ingest processes that write at once', async () => {
    // Prepare
    const dataDir = join(temp, 'two-writers');
    const a = reports('a', 150);
    const b = reports('b', 150);
    // Act
    const writers = [a, b].map((file) => startPlacid(['ingest', '--as-of-now', file, '--data-dir', dataDir]));
    const statuses = await Promise.all(writers.map((w) => w.exited));
    // Assess
    expect(statuses).toEqual([0, 0]);
    for (const w of writers) expect(w.out()).toContain('stored    450 reports');
    const hosts = storedHosts(dataDir);
    expect(hosts.filter((h) => h.startsWith('a-'))).toHaveLength(150);
    expect(hosts.filter((h) => h.startsWith('b-'))).toHaveLength(150);
  }, 120_000);

  it('opens, reads and takes the rest after a writer is killed mid-write', async () => {
    // Prepare
    const dataDir = join(temp, 'killed-writer');
    const big = reports('k', 1500);
    const writer = startPlacid(['ingest', '--as-of-now', big, '--data-dir', dataDir]);
    await eventually(() => lockHolder(dataDir)?.endpoint !== undefined, 30_000, 'the store server');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    // Act
    writer.child.kill('SIGKILL');
    await writer.exited;
    // Assess: what it wrote reads back, and the whole file goes in afterwards
    const partial = storedHosts(dataDir).length;
    expect(partial).toBeLessThan(1500);
    const again = runPlacid(['ingest', '--as-of-now', big, '--data-dir', dataDir]);
    expect(again.status).toBe(0);
    expect(storedHosts(dataDir)).toHaveLength(1500);
  }, 180_000);

  it('exits once no placid process uses the store, giving the lock up', async () => {
    const dataDir = join(temp, 'idle');
    expect(runPlacid(['ingest', '--as-of-now', reports('i', 1), '--data-dir', dataDir]).status).toBe(0);
    await eventually(() => lockHolder(dataDir) === undefined, 20_000, 'the idle server to exit');
  }, 60_000);
});
