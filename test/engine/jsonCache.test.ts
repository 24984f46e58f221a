import { describe, expect, it } from 'vitest';
import { parseJsonCached } from '../../lib/engine/jsonCache.js';

describe('parseJsonCached', () => {
  it('parses JSON text', () => {
    expect(parseJsonCached('{"maxphysaddr": {"bits": 46}}')).toEqual({ maxphysaddr: { bits: 46 } });
  });

  it('returns the same parsed value for the same text', () => {
    // Act
    const first = parseJsonCached('{"cached": true}');
    const second = parseJsonCached('{"cached": true}');

    // Assess
    expect(second).toBe(first);
  });

  it.each([
    ['invalid JSON', '{not json'],
    ['JSON null', 'null'],
  ])('gives undefined for %s', (_case, text) => {
    expect(parseJsonCached(text)).toBeUndefined();
  });
});
