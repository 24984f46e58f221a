/**
 * Placid's layer rules, run by `npm run lint` (README "Layout" says the same in words). Imports run
 * one way: model and config → engine → capabilities (rebalance, schedule, store, ingest, detector,
 * workflow, drivers, …) → composition roots (local, sim, cli, infra) and the Lambda handlers.
 * Run it through scripts/lint-layers.mjs, which adds the rule this file cannot state: no cycle
 * between parts (lib/<part>, functions, bin).
 */

/** The composition roots: they wire the parts together, so nothing below may import them. */
const COMPOSITION = '^lib/(local|sim|cli|infra)/';

/** Who may send DynamoDB commands: lib/store (its repositories) and the local stand-in that creates the tables. */
const TALKS_TO_DYNAMODB = ['^lib/store/', '^lib/local/dynalite[.]ts$'];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'model-config-import-nothing-else',
      comment: 'lib/model and lib/config are the lowest layer: they import each other at most.',
      severity: 'error',
      from: { path: '^lib/(model|config)/' },
      to: { path: '^(lib|functions|bin)/', pathNot: '^lib/(model|config)/' },
    },
    {
      name: 'engine-imports-model-config',
      comment:
        'The filter/weigher engine sees only the model and config: it knows no store, planner or driver.',
      severity: 'error',
      from: { path: '^lib/engine/' },
      to: { path: '^(lib|functions|bin)/', pathNot: '^lib/(engine|model|config)/' },
    },
    {
      name: 'only-composition-roots-import-composition-roots',
      comment:
        'local, sim, cli and infra put the parts together; a part that imports one of them drags the ' +
        'stand-ins, the simulator, the CLI or CDK into everything that uses it.',
      severity: 'error',
      from: { path: '^lib/', pathNot: COMPOSITION },
      to: { path: COMPOSITION },
    },
    {
      name: 'only-the-store-talks-to-dynamodb',
      comment:
        'Data access lives in lib/store: a consumer takes the slice of FleetStore or a repository it ' +
        'needs (docs/store.md) instead of sending DynamoDB commands itself.',
      severity: 'error',
      from: { path: '^(lib|functions|bin)/', pathNot: TALKS_TO_DYNAMODB },
      to: { path: '@aws-sdk/(client-dynamodb|lib-dynamodb)' },
    },
    {
      name: 'handlers-import-no-composition-root',
      comment: 'A Lambda bundle carries no local stand-in, simulation, CLI or CDK code.',
      severity: 'error',
      from: { path: '^functions/' },
      to: { path: COMPOSITION },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '[.]d[.]ts$' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      extensions: ['.ts', '.mts', '.js', '.mjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
