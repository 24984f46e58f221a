import { describe, expect, it } from 'vitest';
import { synthTemplate } from './synth.js';

// Asset hashes change with the CDK version and bundling inputs, not with the infrastructure.
const ASSET_HASH = /[0-9a-f]{64}/g;

describe('template snapshot', () => {
  it('matches the reviewed template (run `npx vitest run -u test/infra` after a deliberate change)', () => {
    const json = JSON.stringify(synthTemplate().toJSON(), null, 1).replace(ASSET_HASH, '<asset-hash>');
    expect(JSON.parse(json)).toMatchSnapshot();
  });
});
