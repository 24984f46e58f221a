import { describe, expect, it } from 'vitest';
import { pyFloat, pyInt } from '../../lib/engine/pyStrings.js';

describe('pyInt', () => {
  it.each([
    ['digits', '42', 42],
    ['surrounding whitespace', ' 42\n', 42],
    ['a minus sign', '-7', -7],
    ['a plus sign', '+3', 3],
  ])('reads %s', (_case, text, expected) => {
    expect(pyInt(text)).toBe(expected);
  });

  it.each([
    ['an empty string', ''],
    ['a decimal point', '4.0'],
    ['letters', 'four'],
    ['a sign alone', '-'],
  ])('rejects %s, as int() raises ValueError', (_case, text) => {
    expect(pyInt(text)).toBeUndefined();
  });
});

describe('pyFloat', () => {
  it.each([
    ['a decimal', '1.5', 1.5],
    ['an integer with whitespace', ' 2 ', 2],
    ['an exponent', '1e3', 1000],
    ['a leading point', '.5', 0.5],
    ['a trailing point', '5.', 5],
    ['underscores between digits', '1_000.5', 1000.5],
    ['inf in any case', 'INF', Infinity],
    ['-infinity', '-infinity', -Infinity],
  ])('reads %s', (_case, text, expected) => {
    expect(pyFloat(text)).toBe(expected);
  });

  it('reads nan', () => {
    expect(pyFloat('nan')).toBeNaN();
  });

  it.each([
    ['an empty string', ''],
    ['a doubled underscore', '1__0'],
    ['a leading underscore', '_1'],
    ['hexadecimal', '0x10'],
    ['letters', 'abc'],
  ])('rejects %s, as float() raises ValueError', (_case, text) => {
    expect(pyFloat(text)).toBeUndefined();
  });
});
