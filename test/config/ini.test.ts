import { describe, expect, it } from 'vitest';
import { parseIni } from '../../lib/config/ini.js';
import { ConfigError } from '../../lib/model/errors.js';

/** The values of every key, without line numbers, for compact expectations. */
function valuesOf(text: string): Record<string, Record<string, string[]>> {
  const doc = parseIni(text, 'nova.conf');
  return Object.fromEntries(
    Object.entries(doc).map(([g, keys]) => [
      g,
      Object.fromEntries(Object.entries(keys).map(([k, v]) => [k, v.values])),
    ]),
  );
}

describe('parseIni', () => {
  it.each([
    ['key = value', '[g]\nkey = value', { g: { key: ['value'] } }],
    ['key: value', '[g]\nkey: value', { g: { key: ['value'] } }],
    ['no spaces around =', '[g]\nkey=value', { g: { key: ['value'] } }],
    [
      'the first of = and : splits',
      '[g]\nurl = rabbit://u:p@h\nw: a=1',
      { g: { url: ['rabbit://u:p@h'], w: ['a=1'] } },
    ],
    ['empty value', '[g]\nkey =', { g: { key: [''] } }],
    ['surrounding quotes stripped', '[g]\na = "x y"\nb = \'z\'', { g: { a: ['x y'], b: ['z'] } }],
    ['unbalanced quote kept', '[g]\na = "x', { g: { a: ['"x'] } }],
    ['# and ; comment lines', '# top\n[g]\n; note\nkey = v\n# end', { g: { key: ['v'] } }],
    ['inline # kept, as oslo does', '[g]\nkey = v # not a comment', { g: { key: ['v # not a comment'] } }],
    ['indented comment skipped', '[g]\nkey = a,\n    # b,\n    c', { g: { key: ['a,\nc'] } }],
    ['continuation lines joined with newlines', '[g]\nkey = a,\n  b,\n\tc', { g: { key: ['a,\nb,\nc'] } }],
    ['blank line ends a continuation', '[g]\nkey = a\n\nother = b', { g: { key: ['a'], other: ['b'] } }],
    ['repeated keys accumulate', '[g]\nf = one\nf = two', { g: { f: ['one', 'two'] } }],
    [
      'repeated sections merge',
      '[g]\na = 1\n[h]\nb = 2\n[g]\na = 3',
      { g: { a: ['1', '3'] }, h: { b: ['2'] } },
    ],
    [
      'group names lowercased but DEFAULT',
      '[DEFAULT]\na = 1\n[Filter_Scheduler]\nb = 2',
      { DEFAULT: { a: ['1'] }, filter_scheduler: { b: ['2'] } },
    ],
    ['empty group kept', '[api]\n', { api: {} }],
    ['CRLF line endings and a BOM', '\uFEFF[g]\r\nkey = v\r\n', { g: { key: ['v'] } }],
  ])('parses %s', (_name, text, expected) => {
    // Act
    const doc = valuesOf(text);
    // Assess
    expect(doc).toEqual(expected);
  });

  it('records the line of every value', () => {
    // Prepare
    const text = '[g]\n# c\nf = one\n\nf = two';
    // Act
    const doc = parseIni(text, 'nova.conf');
    // Assess
    expect(doc.g.f.lines).toEqual([3, 5]);
    expect(doc.g.f.last).toBe('two');
  });

  it.each([
    ['an option before any group', 'key = v', 'nova.conf:1: option key comes before any [group] header'],
    ['a header without ]', '[g\nkey = v', 'nova.conf:1: group header [g has no closing ]'],
    ['an empty header', '[]', 'nova.conf:1: group header [] has no name'],
    ['a line without = or :', '[g]\njust words', 'nova.conf:2: expected "key = value", got "just words"'],
    ['a missing option name', '[g]\n= v', 'nova.conf:2: option name missing before "="'],
    [
      'a continuation with no option',
      '[g]\n\n  orphan',
      'nova.conf:3: indented line continues no option: "orphan"',
    ],
  ])('rejects %s naming the file and line', (_name, text, message) => {
    // Act
    const act = () => parseIni(text, 'nova.conf');
    // Assess
    expect(act).toThrow(ConfigError);
    expect(act).toThrow(message);
  });
});
