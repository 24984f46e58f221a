import { describe, expect, it } from 'vitest';
import {
  checkMessage,
  messageBytes,
  SQS_LIMITS,
  sanitizeForSqs,
  truncateUtf8,
} from '../../lib/queue/limits.js';

describe('messageBytes', () => {
  it('counts the UTF-8 body plus each attribute name, type and value', () => {
    // Prepare: 'é' is 2 bytes; the attribute is 1 + 'String' + 2
    const message = { body: 'aé', attributes: { k: 'vv' } };
    // Act / Assess
    expect(messageBytes(message)).toBe(3 + 1 + 6 + 2);
  });
});

describe('checkMessage', () => {
  const tenAttributes = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`a${i}`, 'x']));

  it.each([
    ['an empty body', { body: '' }, 'InvalidParameterValue'],
    ['a body over the size limit', { body: 'x'.repeat(SQS_LIMITS.messageBytes + 1) }, 'MessageTooLong'],
    [
      'attributes pushing the size over the limit',
      { body: 'x'.repeat(SQS_LIMITS.messageBytes - 5), attributes: { k: 'v' } },
      'MessageTooLong',
    ],
    ['a NUL character in the body', { body: 'a\u0000b' }, 'InvalidMessageContents'],
    ['a lone surrogate in the body', { body: 'a\uD800b' }, 'InvalidMessageContents'],
    ['eleven attributes', { body: 'x', attributes: tenAttributes }, 'InvalidParameterValue'],
    [
      'an attribute name reserved for AWS',
      { body: 'x', attributes: { 'AWS.trace': 'v' } },
      'InvalidParameterValue',
    ],
    ['an attribute name with a space', { body: 'x', attributes: { 'my key': 'v' } }, 'InvalidParameterValue'],
    [
      'an attribute name with two dots in a row',
      { body: 'x', attributes: { 'a..b': 'v' } },
      'InvalidParameterValue',
    ],
    ['an empty attribute value', { body: 'x', attributes: { k: '' } }, 'InvalidParameterValue'],
    [
      'a control character in an attribute value',
      { body: 'x', attributes: { k: '\u0001' } },
      'InvalidParameterValue',
    ],
  ])('refuses %s', (_name, message, code) => {
    expect(checkMessage(message)?.code).toBe(code);
  });

  it.each([
    ['a plain body', { body: '{"schema_version":1}' }],
    ['tabs, newlines and emoji', { body: 'a\tb\nc\r😀' }],
    ['a body exactly at the limit', { body: 'x'.repeat(SQS_LIMITS.messageBytes) }],
    ['dotted and dashed attribute names', { body: 'x', attributes: { 'placid-error': 'e', 'a.b_c': 'v' } }],
  ])('accepts %s', (_name, message) => {
    expect(checkMessage(message)).toBeUndefined();
  });

  it('honours a larger limit for queues configured with one', () => {
    expect(checkMessage({ body: 'x'.repeat(300_000) }, 1_048_576)).toBeUndefined();
  });
});

describe('truncateUtf8', () => {
  it.each([
    ['leaves short text alone', 'abc', 10, 'abc'],
    ['cuts ASCII at the byte limit', 'abcdef', 4, 'abcd'],
    ['never splits a two-byte character', 'aéé', 4, 'aé'],
    ['never splits a surrogate pair', 'a😀b', 4, 'a'],
  ])('%s', (_name, text, max, expected) => {
    expect(truncateUtf8(text, max)).toBe(expected);
  });
});

describe('sanitizeForSqs', () => {
  it('replaces every character SQS refuses and keeps the rest', () => {
    expect(sanitizeForSqs('ok\u0000\u0007\uFFFEé\n')).toBe('ok\uFFFD\uFFFD\uFFFDé\n');
  });
});
