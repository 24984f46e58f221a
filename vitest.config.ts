import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

/** Tests that need Debian packages: a real Prometheus, real Nova (python3-nova). */
const INTEGRATION = [
  'test/collect/realPrometheus.test.ts',
  'test/nova-oracle/**/*.test.ts',
  'test/integrations/**/*.test.ts',
];

/**
 * Tests against a real OpenStack control plane (scripts/openstack/up, docs/openstack.md): only
 * `npm run test:openstack` runs them, after `npm test`.
 */
const OPENSTACK = ['test/openstack/**/*.test.ts'];

/**
 * Files that need modules of their own: they replace a module (vi.mock), patch an AWS SDK client
 * class for every instance (aws-sdk-client-mock's mockClient), or stub the environment and import a
 * Lambda handler afresh; sharing a worker's modules, the next file would get the patched ones.
 * Found by what they call, so a new such file cannot leak into the others.
 */
const PATCHES_MODULES = /\bvi\.(mock|doMock|resetModules)\(|\bmockClient\(/;
const OWN_MODULES = [
  ...readdirSync('test', { recursive: true, encoding: 'utf8' })
    .map((file) => join('test', file))
    .filter((path) => path.endsWith('.test.ts') && !path.startsWith(join('test', 'openstack')))
    .filter((path) => PATCHES_MODULES.test(readFileSync(path, 'utf8'))),
  // Stubs the environment, then imports the ingest handler (which another file may have set up).
  'test/infra/contract.test.ts',
].sort();

export default defineConfig({
  test: {
    environment: 'node',
    setupFiles: ['test/setup/polyfills.ts', 'test/setup/cdk-autoclean.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    env: {
      POWERTOOLS_DEV: 'true',
      POWERTOOLS_SERVICE_NAME: 'placid-test',
      POWERTOOLS_METRICS_NAMESPACE: 'placid-test',
      POWERTOOLS_TRACE_ENABLED: 'false',
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'test',
      AWS_SECRET_ACCESS_KEY: 'test',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: [...INTEGRATION, ...OWN_MODULES, ...OPENSTACK],
          // Test files share a worker's modules instead of importing the engine, the store and the
          // AWS SDK afresh for each of ~280 files: that import was most of the suite's CPU time.
          // Every file sets up what it uses (its own dynalite, servers, clock), so none sees
          // another's state; a file that cannot share goes in OWN_MODULES.
          isolate: false,
        },
      },
      { extends: true, test: { name: 'own-modules', include: OWN_MODULES } },
      // Needs Debian's prometheus and python3-nova (`npm test` installs them): `npm run test:unit`
      // runs everything else without them.
      { extends: true, test: { name: 'integration', include: INTEGRATION } },
      // One cloud for every file, brought up (or reused) by the global set-up: files run one at a
      // time. Not in `npm test` (it names its projects); `npm run test:openstack` runs it.
      {
        extends: true,
        test: {
          name: 'openstack',
          include: OPENSTACK,
          globalSetup: ['test/openstack/globalSetup.ts'],
          fileParallelism: false,
          testTimeout: 300_000,
          hookTimeout: 600_000,
        },
      },
    ],
  },
});
