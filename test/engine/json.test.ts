import { describe, expect, it } from 'vitest';
import { parseJson } from '../../lib/engine/json.js';

describe('parseJson', () => {
  it('parses JSON text', () => {
    expect(parseJson('{"maxphysaddr": {"bits": 46}}')).toEqual({ maxphysaddr: { bits: 46 } });
  });

  it.each([
    ['invalid JSON', '{not json'],
    ['JSON null', 'null'],
  ])('gives undefined for %s', (_case, text) => {
    expect(parseJson(text)).toBeUndefined();
  });
});
