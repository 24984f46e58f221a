import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../lib/config/packageRoot.js';
import { tempFiles } from '../cli/runCli.js';

/** A project tree of `path → source`, with the tsconfig the rules resolve `.js` specifiers by. */
function project(files: Record<string, string>): string {
  const tree = tempFiles('placid-layers-');
  tree.write('tsconfig.json', { compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext' } });
  for (const [path, text] of Object.entries(files)) tree.write(path, text);
  return tree.dir;
}

function lintLayers(dir: string) {
  return spawnSync(process.execPath, [join(packageRoot(), 'scripts/lint-layers.mjs'), dir], {
    encoding: 'utf8',
  });
}

describe('npm run lint: the layer rules', () => {
  it('passes imports that run one way', () => {
    // Prepare
    const dir = project({
      'lib/model/host.ts': 'export const HOST = 1;\n',
      'lib/engine/filter.ts': "import { HOST } from '../model/host.js';\nexport const F = HOST;\n",
      'lib/workflow/steps/step.ts': "import { F } from '../../engine/filter.js';\nexport const S = F;\n",
      'lib/local/runner.ts': "import { S } from '../workflow/steps/step.js';\nexport const R = S;\n",
      'functions/step/handler.ts':
        "import { S } from '../../lib/workflow/steps/step.js';\nexport const H = S;\n",
    });
    // Act
    const run = lintLayers(dir);
    // Assess
    expect(run.stdout).toContain('5 modules, 0 import(s) against the rules, 0 cycle(s) between parts');
    expect(run.status).toBe(0);
  });

  it('fails on each kind of wrong-way import, .js specifiers resolved to .ts files', () => {
    // Prepare
    const dir = project({
      'lib/model/host.ts': "import { R } from '../local/runner.js';\nexport const HOST = R;\n",
      'lib/local/runner.ts': 'export const R = 1;\n',
      'lib/engine/filter.ts': "import { T } from '../store/table.js';\nexport const F = T;\n",
      'lib/store/table.ts': 'export const T = 1;\n',
      'functions/step/handler.ts': "import { W } from '../../lib/sim/world.js';\nexport const H = W;\n",
      'lib/sim/world.ts': 'export const W = 1;\n',
      // A cycle between parts that enters lib/workflow through a subfolder, which
      // dependency-cruiser's own folder scope does not see.
      'lib/detector/plan.ts': "import { S } from '../workflow/steps/step.js';\nexport const P = S;\n",
      'lib/workflow/steps/step.ts': 'export const S = 1;\n',
      'lib/workflow/record.ts': "import { D } from '../detector/state.js';\nexport const REC = D;\n",
      'lib/detector/state.ts': 'export const D = 1;\n',
    });
    // Act
    const run = lintLayers(dir);
    // Assess
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('model-config-import-nothing-else: lib/model/host.ts → lib/local/runner.ts');
    expect(run.stdout).toContain(
      'only-composition-roots-import-composition-roots: lib/model/host.ts → lib/local/runner.ts',
    );
    expect(run.stdout).toContain('engine-imports-model-config: lib/engine/filter.ts → lib/store/table.ts');
    expect(run.stdout).toContain(
      'handlers-import-no-composition-root: functions/step/handler.ts → lib/sim/world.ts',
    );
    expect(run.stdout).toContain('no-part-cycles: lib/detector, lib/workflow depend on each other');
    expect(run.stdout).toContain(
      'lib/detector → lib/workflow  (lib/detector/plan.ts → lib/workflow/steps/step.ts)',
    );
    expect(run.stdout).toContain('4 import(s) against the rules, 1 cycle(s) between parts');
  });
});
