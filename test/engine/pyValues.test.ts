import { describe, expect, it } from 'vitest';
import {
  isPyDict,
  PyIPAddress,
  pyCompare,
  pyEquals,
  pyTruthy,
  pythonRepr,
  pythonStr,
  UnorderableError,
} from '../../lib/engine/pyValues.js';

describe('pyTruthy', () => {
  it.each([
    ['None', null, false],
    ['False', false, false],
    ['0', 0, false],
    ['an empty string', '', false],
    ['an empty list', [], false],
    ['an empty dict', {}, false],
    ['the all-zero IPv4 address', new PyIPAddress('0.0.0.0'), false],
    ['the all-zero IPv6 address', new PyIPAddress('::'), false],
    ['NaN', Number.NaN, true],
    ['a non-empty string, even "False"', 'False', true],
    ['a list holding a false value', [0], true],
    ['a dict with a key', { a: null }, true],
    ['an address', new PyIPAddress('10.0.0.1'), true],
  ])('treats %s as %s', (_case, value, expected) => {
    expect(pyTruthy(value)).toBe(expected);
  });
});

describe('pyEquals', () => {
  it.each([
    ['True and 1', true, 1, true],
    ['a number and its text', 5, '5', false],
    ['equal strings', 'kvm', 'kvm', true],
    ['lists by content', [1, 'a'], [1, 'a'], true],
    ['lists of different lengths', [1], [1, 2], false],
    ['dicts by content, whatever the key order', { a: 1, b: 2 }, { b: 2, a: 1 }, true],
    ['dicts with different keys', { a: 1 }, { b: 1 }, false],
    ['an address and its text', new PyIPAddress('10.0.0.1'), '10.0.0.1', false],
    ['two equal addresses', new PyIPAddress('10.0.0.1'), new PyIPAddress('10.0.0.1'), true],
  ])('compares %s', (_case, a, b, expected) => {
    expect(pyEquals(a, b)).toBe(expected);
  });
});

describe('pyCompare', () => {
  it.each([
    ['numbers', 1, 2, -1],
    ['a boolean with a number', true, 0, 1],
    ['strings by code point', 'b', 'a', 1],
    ['lists element by element', [1, 2], [1, 3], -1],
    ['a list with its own prefix', [1, 2], [1], 1],
    ['addresses by their text', new PyIPAddress('10.0.0.1'), new PyIPAddress('10.0.0.2'), -1],
  ])('orders %s', (_case, a, b, expected) => {
    expect(Math.sign(pyCompare(a, b, '<'))).toBe(expected);
  });

  it('gives NaN for NaN, so every comparison is false', () => {
    expect(pyCompare(Number.NaN, 1, '<')).toBeNaN();
  });

  it.each([
    ['a string with a number', '5', 5, "cannot compare '5' < 5"],
    ['dicts', {}, { a: 1 }, "cannot compare {} < {'a': 1}"],
    [
      'an address with a string',
      new PyIPAddress('10.0.0.1'),
      '10.0.0.2',
      "cannot compare IPAddress('10.0.0.1') < '10.0.0.2'",
    ],
  ])('refuses to order %s, as Python raises TypeError', (_case, a, b, message) => {
    // Act
    const order = () => pyCompare(a, b, '<');

    // Assess
    expect(order).toThrow(UnorderableError);
    expect(order).toThrow(message);
  });

  it('names the unorderable operands in the error', () => {
    // Act
    let error: unknown;
    try {
      pyCompare([1, 'x'], [1, 2], '>=');
    } catch (err) {
      error = err;
    }

    // Assess
    expect(error).toMatchObject({ left: 'x', right: 2 });
  });
});

describe('isPyDict', () => {
  it.each([
    ['a plain object', { a: 1 }, true],
    ['a list', [], false],
    ['None', null, false],
    ['an address', new PyIPAddress('10.0.0.1'), false],
  ])('tells whether %s is a dict', (_case, value, expected) => {
    expect(isPyDict(value)).toBe(expected);
  });
});

describe('addresses as text', () => {
  it("prints str() as the address and repr() as netaddr's IPAddress('…')", () => {
    // Prepare
    const address = new PyIPAddress('10.0.0.1');

    // Assess
    expect([pythonStr(address), pythonRepr(address)]).toEqual(['10.0.0.1', "IPAddress('10.0.0.1')"]);
  });
});
