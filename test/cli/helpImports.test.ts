import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Module specifiers `file` imports for their values (type-only imports are erased by the build). */
function valueImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers: string[] = [];
  // `import x, { y } from '…'`, `export { y } from '…'`, `import '…'` (the clause may span lines).
  for (const m of text.matchAll(/^(?:import|export)\s+(?:([\w$*{},\s]+?)\s+from\s+)?'([^']+)';/gm)) {
    const clause = (m[1] ?? '').trim();
    if (/^type\s/.test(clause)) continue;
    const named = clause.match(/^\{([^}]*)\}$/);
    if (named?.[1].split(',').every((s) => s.trim() === '' || /^type\s/.test(s.trim()))) continue;
    specifiers.push(m[2]);
  }
  return specifiers;
}

/** Every module and package reached from `entry` through static value imports. */
function staticGraph(entry: string): { modules: Set<string>; packages: Set<string> } {
  const modules = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (modules.has(file)) return;
    modules.add(file);
    for (const spec of valueImports(file)) {
      if (spec.startsWith('.')) visit(join(dirname(file), spec.replace(/\.js$/, '.ts')));
      else if (!spec.startsWith('node:')) packages.add(spec);
    }
  };
  visit(join(ROOT, entry));
  return { modules: new Set([...modules].map((m) => relative(ROOT, m))), packages };
}

describe('the command tree `placid --help` loads', () => {
  it('reaches no schema: zod and the engine load with the command that needs them', () => {
    // Arrange and act
    const { modules, packages } = staticGraph('bin/placid.ts');

    // Assert: the walk itself worked, then what it must not reach
    expect(modules).toContain('lib/cli/schedule.ts');
    expect([...packages]).toEqual(['@commander-js/extra-typings']);
    expect([...modules].filter((m) => m.startsWith('lib/engine/') && m !== 'lib/engine/errors.ts')).toEqual(
      [],
    );
  });
});
