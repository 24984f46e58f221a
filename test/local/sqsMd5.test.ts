import { describe, expect, it } from 'vitest';
import { md5Hex, md5OfMessageAttributes } from '../../lib/local/sqsMd5.js';

describe('md5OfMessageAttributes', () => {
  // Expected digests are the published examples of SQS's attribute-digest algorithm.
  it.each([
    [
      'one string attribute',
      { SellerName: { dataType: 'String', value: 'Example Store' } },
      'cd28f3b68aeee4b2eac9c66f2f694b58',
    ],
    [
      'one number attribute',
      { timestamp: { dataType: 'Number', value: '1493147359900' } },
      '235c5c510d26fb653d073faed50ae77c',
    ],
    [
      'two attributes, given out of name order',
      { ordinal: { dataType: 'Number', value: '1' }, category: { dataType: 'String', value: 'test' } },
      'd21ae90c49061e927f57df5f5d72be1f',
    ],
  ])('matches SQS for %s', (_name, attributes, expected) => {
    expect(md5OfMessageAttributes(attributes)).toBe(expected);
  });

  it('is undefined without attributes, as SQS omits it', () => {
    expect(md5OfMessageAttributes({})).toBeUndefined();
  });
});

describe('md5Hex', () => {
  it('hashes the UTF-8 body', () => {
    expect(md5Hex('hello')).toBe('5d41402abc4b2a76b9719d911017c592');
  });
});
