import { format, inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { isRedacted, REDACTED, redacted } from '../../lib/drivers/redact.js';

const secret = () => redacted({ user: 'placid', password: 'hunter2-secret' });

describe('redacted', () => {
  it.each([
    ['JSON.stringify', (v: object) => JSON.stringify(v)],
    ['JSON.stringify inside another object', (v: object) => JSON.stringify({ creds: v })],
    ['util.inspect', (v: object) => inspect(v)],
    ['console-style formatting', (v: object) => format('%o %O %s', v, v, v)],
    ['a template literal', (v: object) => `${v}`],
    ['String()', (v: object) => String(v)],
  ])('prints as [redacted] through %s', (_name, print) => {
    const shown = print(secret());
    expect(shown).toContain(REDACTED);
    expect(shown).not.toContain('hunter2-secret');
  });

  it('still reads like the original', () => {
    const value = secret();
    expect([value.user, value.password, Object.keys(value)]).toEqual([
      'placid',
      'hunter2-secret',
      ['user', 'password'],
    ]);
  });

  it('leaves the original object printable', () => {
    const original = { password: 'visible-in-original' };
    redacted(original);
    expect(JSON.stringify(original)).toContain('visible-in-original');
  });

  it('tells redacted objects apart', () => {
    expect([isRedacted(secret()), isRedacted({ a: 1 }), isRedacted(null)]).toEqual([true, false, false]);
  });
});
