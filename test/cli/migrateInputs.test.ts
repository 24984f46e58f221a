/**
 * `placid migrate` refuses what it cannot use before anything starts: an --endpoints file it cannot
 * read, or a destination the local store does not know, is exit 2 with one line, and no migration
 * is recorded.
 */
import { describe, expect, it } from 'vitest';
import { openLocalStore } from '../../lib/local/localStore.js';
import { runCli, tempFiles } from './runCli.js';
import { storeWithVm } from './storeWithVm.js';

const VM = '0b5f9a5e-1c1d-4c1e-9f2a-5d6e7f8a9b0c';
const files = tempFiles('placid-migrate-inputs-');

async function migrationsIn(dir: string): Promise<number> {
  const local = await openLocalStore({ dataDir: dir });
  try {
    return (await local.store.migrations.forInstance(VM)).length;
  } finally {
    await local.close();
  }
}

describe('placid migrate, before anything starts', () => {
  it.each([
    ['a missing --endpoints file', ['--to', 'cmp2', '--endpoints', `${files.dir}/nope.json`], /nope\.json/],
    [
      'an --endpoints directory',
      ['--to', 'cmp2', '--endpoints', files.dir],
      /cannot read secrets file.*EISDIR/,
    ],
    [
      'an --endpoints file that is not JSON',
      ['--to', 'cmp2', '--endpoints', files.write('bad.json', '{')],
      /bad\.json/,
    ],
    ['a destination that does not exist', ['--to', 'cmp-nowhere'], /cmp-nowhere/],
  ])('%s: exit 2, one line, nothing recorded', async (_, args, mentions) => {
    const dir = await storeWithVm(VM, 'placid-migrate-inputs-');
    const run = await runCli(['migrate', '--instance', VM, '--data-dir', dir, ...(args as string[])]);
    expect([run.status, run.stderr]).toEqual([2, expect.stringMatching(/^placid: [^\n]+\n$/)]);
    expect(run.stderr).toMatch(mentions);
    expect(await migrationsIn(dir)).toBe(0);
  });
});
