/**
 * What `placid schedule --hosts --request` loads before it knows it needs more: the modules it
 * imports statically must not reach zod (loading it costs a start about as much as Node itself;
 * the fast validation paths stand in, and zod is imported only when they decline).
 */
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

/** The chain of static imports from `entry` to the package `pkg`, or undefined when none reaches it. */
async function staticChainTo(entry: string, pkg: string): Promise<string[] | undefined> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    logLevel: 'silent',
  });
  const inputs = result.metafile.inputs;
  const parent = new Map<string, string | null>([[entry, null]]);
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const imp of inputs[file]?.imports ?? []) {
      if (imp.kind !== 'import-statement') continue;
      if (imp.external && (imp.path === pkg || imp.path.startsWith(`${pkg}/`))) {
        const chain = [imp.path];
        for (let at: string | null = file; at !== null; at = parent.get(at) ?? null) chain.unshift(at);
        return chain;
      }
      if (!imp.external && !parent.has(imp.path)) {
        parent.set(imp.path, file);
        queue.push(imp.path);
      }
    }
  }
  return undefined;
}

describe('placid schedule start cost', () => {
  it.each(['lib/cli/schedule.ts', 'lib/cli/inputs.ts', 'lib/cli/decide.ts', 'lib/cli/report.ts'])(
    '%s reaches no zod through static imports',
    async (entry) => {
      expect(await staticChainTo(entry, 'zod')).toBeUndefined();
    },
  );

  it('finds such a chain where there is one (the embedding API validates with zod)', async () => {
    expect(await staticChainTo('lib/engine/index.ts', 'zod')).toContain('lib/engine/service.ts');
  });
});
