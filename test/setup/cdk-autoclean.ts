// The vitest twin of aws-cdk-lib/testhelpers/jest-autoclean: every App synthesised in a test file
// leaves a cdk.out* directory in the temp dir unless it is removed after the file. aws-cdk-lib takes
// most of a second to load, so only files that loaded it (it is CommonJS: Node's require cache
// shows it) pay for the cleanup.
import { createRequire } from 'node:module';
import { sep } from 'node:path';
import { afterAll } from 'vitest';

const require = createRequire(import.meta.url);
const CDK_LIB = `${sep}aws-cdk-lib${sep}`;

afterAll(async () => {
  if (!Object.keys(require.cache).some((path) => path.includes(CDK_LIB))) return;
  const { CloudAssembly } = await import('aws-cdk-lib/cx-api');
  CloudAssembly.cleanupTemporaryDirectories();
});
