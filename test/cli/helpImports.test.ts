import { cruise } from 'dependency-cruiser';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { describe, expect, it } from 'vitest';

interface Dependency {
  resolved: string;
  dynamic: boolean;
  dependencyTypes: string[];
}

/**
 * Every module reached from `entry` through static value imports, as dependency-cruiser (the
 * layer check's tool) resolves them: dynamic imports load with their command, type-only imports
 * are erased by the build.
 */
async function staticallyReached(entry: string): Promise<Set<string>> {
  const { output } = await cruise(
    [entry],
    { doNotFollow: { path: 'node_modules' }, tsPreCompilationDeps: true },
    undefined,
    { tsConfig: extractTSConfig('tsconfig.json') },
  );
  if (typeof output === 'string') throw new Error('dependency-cruiser gave a report, not modules');
  const edges = new Map(output.modules.map((m) => [m.source, m.dependencies as Dependency[]]));
  const reached = new Set<string>();
  const visit = (source: string) => {
    if (reached.has(source)) return;
    reached.add(source);
    for (const d of edges.get(source) ?? [])
      if (!d.dynamic && !d.dependencyTypes.includes('type-only')) visit(d.resolved);
  };
  visit(entry);
  return reached;
}

describe('the command tree `placid --help` loads', () => {
  it('reaches no schema: zod and the engine load with the command that needs them', async () => {
    // Act
    const reached = [...(await staticallyReached('bin/placid.ts'))];

    // Assert: the walk found the command tree, then what it must not reach
    expect(reached).toContain('lib/cli/schedule.ts');
    expect(reached.filter((m) => m.startsWith('node_modules/zod/'))).toEqual([]);
    expect(reached.filter((m) => m.startsWith('lib/engine/') && m !== 'lib/engine/errors.ts')).toEqual([]);
  }, 30_000);
});
