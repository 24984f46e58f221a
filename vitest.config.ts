import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    include: ['test/**/*.test.ts'],
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
  },
});
