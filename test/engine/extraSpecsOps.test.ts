import { describe, expect, it } from 'vitest';
import { compileExtraSpec } from '../../lib/engine/extraSpecsOps.js';

/** Nova's `extra_specs_ops.match(value, req)`. */
const matchExtraSpec = (value: string | null | undefined, req: string) => compileExtraSpec(req)(value);

import { comparePyStrings, pySplit } from '../../lib/engine/pyStrings.js';
import { pythonRepr, pythonStr } from '../../lib/engine/pyValues.js';
import { RequestError } from '../../lib/model/errors.js';

describe('matchExtraSpec', () => {
  it.each([
    // No operator: the whole requirement is compared as one string.
    ['equal strings match without an operator', '1', '1', true],
    ['different strings fail without an operator', '1', '2', false],
    ['the requirement keeps its inner spaces', 'a b', 'a b', true],
    ['a value spaced differently from the requirement fails', 'a  b', 'a b', false],
    ['">" is not an operator, so "> 2" is a literal', '4', '> 2', false],
    ['">" literal matches only itself', '> 2', '> 2', true],
    ['"<" is not an operator either', '1', '< 2', false],
    ['an empty requirement matches an empty value', '', '', true],
    ['a whitespace-only requirement is compared literally', '', '  ', false],
    ['a missing value never equals a requirement', null, 'x', false],
    ['an unknown first word makes the requirement literal', '5', 'at-least 3', false],
    // '=' and the numeric operators.
    ['"=" means at least: a larger value passes', '5', '= 3', true],
    ['"=" means at least: an equal value passes', '3', '= 3', true],
    ['"=" means at least: a smaller value fails', '2', '= 3', false],
    ['"=" compares fractions', '1.5', '= 1.25', true],
    ['"==" is numeric equality', '1.0', '== 1', true],
    ['"==" fails on different numbers', '1', '== 1.5', false],
    ['"!=" passes on different numbers', '1', '!= 2', true],
    ['"!=" fails on equal numbers', '1', '!= 1.0', false],
    ['">=" compares numbers, not text', '10', '>= 9', true],
    ['"<=" compares numbers, not text', '10', '<= 9', false],
    ['float() accepts surrounding whitespace in the value', ' 10 ', '>= 9', true],
    ['float() accepts exponents', '1e3', '>= 999', true],
    ['float() accepts infinity', 'inf', '>= 1e308', true],
    ['nan is never at least anything', 'nan', '>= 0', false],
    ['nan differs from nan', 'nan', '!= nan', true],
    ['words after the first operand are ignored', '5', '>= 3 9', true],
    ['a tab separates the operator from the operand', '5', '>=\t3', true],
    ['a no-break space is Python whitespace', '5', '\u00a0>= 3', true],
    ['an information separator (U+001C) is Python whitespace', '5', '>=\u001c3', true],
    ['a byte-order mark is not Python whitespace', '5', '\ufeff>= 3', false],
    ['an operator without an operand fails', '5', '=', false],
    ['an operator followed only by spaces fails', '5', '>=   ', false],
    ['a missing value fails a numeric operator', null, '>= 1', false],
    ['an undefined value fails a numeric operator', undefined, '>= 1', false],
    // String operators.
    ['"s==" is string equality', 'abc', 's== abc', true],
    ['"s==" is case sensitive', 'ABC', 's== abc', false],
    ['"s!=" passes on different strings', 'abc', 's!= abd', true],
    ['"s<" compares strings', 'a', 's< b', true],
    ['"s<=" passes on equal strings', 'b', 's<= b', true],
    ['"s>" compares text, so "10" is before "9"', '10', 's> 9', false],
    ['"s>=" passes on equal strings', '9', 's>= 9', true],
    ['"s>" orders by code point: an emoji is after U+FFFD', '\u{1F600}', 's> \ufffd', true],
    ['"s<" orders by code point: U+FFFD is before an emoji', '\ufffd', 's< \u{1F600}', true],
    ['"s==" ignores words after the operand', 'a', 's== a b', true],
    // Substring operators.
    ['"<in>" is a substring test', 'has-gpu-x', '<in> gpu', true],
    ['"<in>" finds digits inside a number', '12311321', '<in> 11', true],
    ['"<in>" fails when the text is absent', '12311321', '<in> 45', false],
    ['"<in>" fails on a missing value', null, '<in> a', false],
    ['"<all-in>" needs every word as a substring', "['aes', 'mmx', 'aux']", '<all-in> aes mmx', true],
    ['"<all-in>" fails when one word is absent', "['aes', 'mmx']", '<all-in> aes sse', false],
    ['"<all-in>" matches parts of list items', "['aes']", '<all-in> ae', true],
    ['"<all-in>" without words fails', 'aes', '<all-in>', false],
    // '<or>'.
    ['"<or>" matches the first alternative', '11', '<or> 11 <or> 12', true],
    ['"<or>" matches a later alternative', '12', '<or> 11 <or> 12', true],
    ['"<or>" fails when no alternative matches', '13', '<or> 11 <or> 12', false],
    ['"<or>" skips every second word unread', '12', '<or> 11 12', false],
    ['"<or>" tolerates a trailing keyword', '11', '<or> 11 <or>', true],
    ['"<or>" with one alternative', 'a', '<or>  a', true],
    ['"<or>" compares whole words, not substrings', 'ab', '<or> a <or> b', false],
    ['"<or>" on a missing value fails before reading alternatives', null, '<or>', false],
  ])('%s', (_name, value, req, expected) => {
    // Act
    const result = matchExtraSpec(value, req);
    // Assess
    expect(result).toBe(expected);
  });

  it.each([
    ['a non-numeric value with a numeric operator', 'abc', '>= 1', 'abc'],
    ['a non-numeric operand with a numeric operator', '1', '= abc', 'abc'],
    ['a boolean rendered as True with "=="', 'True', '== 1', 'True'],
    ['a value with a thousands separator', '1,000', '>= 1', '1,000'],
  ])('raises a RequestError for %s (Nova raises ValueError)', (_name, value, req, bad) => {
    // Act
    const act = () => matchExtraSpec(value, req);
    // Assess
    expect(act).toThrow(RequestError);
    expect(act).toThrow(new RegExp(`'${bad}' is not a number.*'${value}'`));
    expect(act).toThrow(req);
  });

  it('reports the bad value before the bad operand, as Python evaluates float(value) first', () => {
    // Act
    const act = () => matchExtraSpec('abc', '>= xyz');
    // Assess
    expect(act).toThrow(/'abc' is not a number/);
  });

  it('raises a RequestError for "<or>" with nothing after it', () => {
    // Act
    const act = () => matchExtraSpec('x', '<or>');
    // Assess
    expect(act).toThrow(RequestError);
    expect(act).toThrow(/'<or>'.*'x'/);
  });

  it('does not raise for string operators on non-numeric values', () => {
    // Act
    const result = matchExtraSpec('xyz', 's== abc');
    // Assess
    expect(result).toBe(false);
  });
});

describe('compileExtraSpec', () => {
  it('compiles once and matches many values', () => {
    // Prepare
    const atLeastFour = compileExtraSpec('>= 4');
    // Act
    const results = ['3', '4', '16'].map(atLeastFour);
    // Assess
    expect(results).toEqual([false, true, true]);
  });
});

describe('pySplit', () => {
  it.each([
    ['splits on runs of spaces', '  a   b ', ['a', 'b']],
    ['splits on tabs and newlines', 'a\tb\nc', ['a', 'b', 'c']],
    ['gives no words for whitespace only', ' \t ', []],
    ['keeps a byte-order mark inside a word', '\ufeffa b', ['\ufeffa', 'b']],
    ['splits on an ideographic space', 'a\u3000b', ['a', 'b']],
  ])('%s', (_name, text, expected) => {
    // Act
    const words = pySplit(text);
    // Assess
    expect(words).toEqual(expected);
  });
});

describe('comparePyStrings', () => {
  it.each([
    ['orders ASCII text', 'a', 'b', -1],
    ['treats a prefix as smaller', 'ab', 'abc', -1],
    ['finds equal strings equal', 'x', 'x', 0],
    ['puts astral characters after U+E000-U+FFFF', '\u{10000}', '\uffff', 1],
    ['puts U+E000 before astral characters', '\ue000', '\u{1F600}', -1],
    ['orders two astral characters by code point', '\u{1F601}', '\u{1F600}', 1],
  ])('%s', (_name, a, b, sign) => {
    // Act
    const result = Math.sign(comparePyStrings(a, b));
    // Assess
    expect(result).toBe(sign);
  });
});

describe('pythonStr', () => {
  it.each([
    ['keeps a string as is', 'abc', 'abc'],
    ['prints true as True', true, 'True'],
    ['prints false as False', false, 'False'],
    ['prints an integer without a fraction', 16, '16'],
    ['prints a fraction', 1.5, '1.5'],
    ['prints a negative number', -2, '-2'],
    ['prints small floats in exponent form with two exponent digits', 1e-5, '1e-05'],
    ['prints 0.0001 in fixed form', 0.0001, '0.0001'],
    ['prints a huge integer in full', 1e21, '1000000000000000000000'],
    ['prints NaN as nan', Number.NaN, 'nan'],
    ['prints infinity as inf', Number.POSITIVE_INFINITY, 'inf'],
    ['prints negative infinity as -inf', Number.NEGATIVE_INFINITY, '-inf'],
    ['prints null as None', null, 'None'],
    ['prints a list of strings like Python', ['aes', 'mmx'], "['aes', 'mmx']"],
    ['prints nested lists with Python literals', [[1, true, null]], '[[1, True, None]]'],
    ['prints a dict like Python', { a: 1, b: 'x' }, "{'a': 1, 'b': 'x'}"],
    ['double-quotes a string holding a single quote', ["it's"], '["it\'s"]'],
    ['escapes a single quote when both quotes appear', ['a\'b"c'], "['a\\'b\"c']"],
    ['escapes newlines and backslashes', ['a\nb\\c'], "['a\\nb\\\\c']"],
    ['escapes control characters in hex', ['\u0001'], "['\\x01']"],
    ['prints an empty list', [], '[]'],
    ['prints an empty dict', {}, '{}'],
  ])('%s', (_name, value, expected) => {
    // Act
    const text = pythonStr(value);
    // Assess
    expect(text).toBe(expected);
  });

  it('quotes a top-level string only in repr', () => {
    // Act
    const repr = pythonRepr('abc');
    // Assess
    expect(repr).toBe("'abc'");
  });
});
