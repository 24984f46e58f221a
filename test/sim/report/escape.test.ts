import { describe, expect, it } from 'vitest';
import { escapeHtml, plainText } from '../../../lib/sim/report/escape.js';

describe('escapeHtml', () => {
  it.each([
    ['<script>', '&lt;script&gt;'],
    ['a & b', 'a &amp; b'],
    ['say "hi"', 'say &quot;hi&quot;'],
    ["it's", 'it&#39;s'],
    ['&lt;', '&amp;lt;'],
  ])('escapes %s', (raw, escaped) => {
    expect(escapeHtml(raw)).toBe(escaped);
  });
});

describe('plainText', () => {
  it('replaces control characters, ESC included, and keeps the rest', () => {
    expect(plainText('vm\u001b[31m-1\u0007\u009b')).toBe('vm [31m-1  ');
    expect(plainText('web-0001 → host é')).toBe('web-0001 → host é');
  });
});
