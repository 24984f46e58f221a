import { describe, expect, it } from 'vitest';
import { hypervisorVersionText, parseVersionPredicate } from '../../lib/engine/versionPredicate.js';

describe('hypervisorVersionText', () => {
  it.each([
    [6000000, '6.0.0'],
    [5000, '5.0'],
    [2011003, '2.11.3'],
    [7, '7'],
  ])('writes %i as %s', (version, text) => {
    expect(hypervisorVersionText(version)).toBe(text);
  });
});

describe('parseVersionPredicate', () => {
  it.each([
    ['an empty predicate', ''],
    ['a version without an operator', '6.0'],
    ['an operator without a version', '>='],
    ['a trailing comma', '>=6.0,'],
    ['an unknown operator', '=>6.0'],
    ['a version that is not PEP 440', '>=six'],
  ])('rejects %s', (_case, text) => {
    expect(parseVersionPredicate(text)).toBeUndefined();
  });

  it.each([
    ['a version inside a range', '>=6.0,<6.2', '6.1.0', true],
    ['the upper end of a half-open range', '>=6.0,<6.2', '6.2.0', false],
    ['a version equal but for trailing zeros', '==6.2', '6.2.0', true],
    ['a version excluded by !=', '!=6.2', '6.2', false],
    ['a release candidate, which comes before its release', '<6.0', '6.0rc1', true],
    ['a post release, which comes after its release', '>6.0', '6.0.post1', true],
    ['a dev release, which comes before its alphas', '<6.0a1', '6.0.dev1', true],
    ['a local version, which comes after the plain one', '>6.0', '6.0+local.1', true],
    ['a later epoch, which outranks every release', '>=1!0', '2.0', false],
    ['a host version that is not a version', '>=1.0', 'not-a-version', false],
  ])('judges %s', (_case, predicate, version, expected) => {
    // Prepare
    const holds = parseVersionPredicate(predicate);

    // Act
    const result = holds?.(version);

    // Assess
    expect(result).toBe(expected);
  });
});
