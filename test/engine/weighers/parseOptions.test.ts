import { describe, expect, it } from 'vitest';
import { parseOptions } from '../../../lib/engine/weighers/parseOptions.js';

describe('parseOptions', () => {
  it.each<[string, string[], [string, number][]]>([
    [
      'reads name=ratio pairs in order',
      ['a=1.0', 'b=-0.5'],
      [
        ['a', 1],
        ['b', -0.5],
      ],
    ],
    [
      'keeps repeated names',
      ['a=1', 'a=2'],
      [
        ['a', 1],
        ['a', 2],
      ],
    ],
    ['splits on the first =, so a=b=1 has the unparsable value b=1', ['a=b=1'], []],
    ['keeps the key unstripped', ['a =1'], [['a ', 1]]],
    ['allows spaces around the value, as float() does', ['a= 2.5 '], [['a', 2.5]]],
    [
      'reads Python float spellings',
      ['a=1e3', 'b=.5', 'c=-inf', 'd=+7'],
      [
        ['a', 1000],
        ['b', 0.5],
        ['c', -Infinity],
        ['d', 7],
      ],
    ],
    ['drops an entry without =', ['a'], []],
    ['drops an entry with an empty key', ['=1'], []],
    ['drops an entry with an empty value', ['a='], []],
    ['drops an unparsable value but keeps the rest', ['a=high', 'b=2'], [['b', 2]]],
    ['returns nothing for no entries', [], []],
  ])('%s', (_case, entries, expected) => {
    // Act
    const parsed = parseOptions(entries);
    // Assess
    expect(parsed).toEqual(expected);
  });

  it('reads nan as NaN', () => {
    expect(parseOptions(['a=nan'])).toEqual([['a', Number.NaN]]);
  });
});
