/**
 * Reading a JSON array of objects one object at a time (lib/model/jsonArrayObjects.ts) against
 * JSON.parse of the whole text, the reference: when the reader answers, the whole parse succeeds
 * and gives the same objects; for any text the whole parse refuses, the reader declines.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eachArrayObject, type ReadInto, readFrom } from '../../lib/model/jsonArrayObjects.js';

/**
 * The reader's items, or undefined when it declines. `pieces`: how many bytes each read hands over
 * at most, in turn (a file read in odd pieces must read as one read whole).
 */
function read(text: string, pieces?: readonly number[]): unknown[] | undefined {
  const items: unknown[] = [];
  const bytes = Buffer.from(text, 'utf8');
  const ok = eachArrayObject(pieces ? inPieces(bytes, pieces) : readFrom(bytes), (item) => {
    items.push(item);
    return true;
  });
  return ok ? items : undefined;
}

function inPieces(bytes: Uint8Array, pieces: readonly number[]): ReadInto {
  const whole = readFrom(bytes);
  let k = 0;
  return (buffer, offset, length) => whole(buffer, offset, Math.min(length, pieces[k++ % pieces.length]));
}

const pieceSizes = fc.option(fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 5 }), {
  nil: undefined,
});

/** JSON.parse of the text as a file would hold it (a lone surrogate becomes U+FFFD in UTF-8). */
function wholeParse(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(Buffer.from(text, 'utf8').toString('utf8')) };
  } catch {
    return undefined;
  }
}

/** The reader's one rule: an answer is the whole parse's answer, and text JSON refuses is declined. */
function expectAgrees(text: string, pieces?: readonly number[]): void {
  const items = read(text, pieces);
  const whole = wholeParse(text);
  if (items === undefined) {
    const isArrayOfObjects =
      whole !== undefined &&
      Array.isArray(whole.value) &&
      whole.value.every((v) => v !== null && typeof v === 'object' && !Array.isArray(v));
    // Declining an array of objects would only cost speed, but no such text should be declined.
    expect(isArrayOfObjects, `declined an array of objects: ${text}`).toBe(false);
    return;
  }
  expect(whole, `answered for text JSON.parse refuses: ${text}`).toBeDefined();
  expect(items).toStrictEqual(whole!.value);
}

// Strings full of what the reader looks at: quotes, backslashes, brackets, multi-byte characters.
const tricky = fc.string({
  unit: fc.constantFrom('"', '\\', '{', '}', '[', ']', ',', ' ', 'a', 'é', '😀', '\n', '\u2028', '\u0000'),
  maxLength: 8,
});
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    tricky,
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(tricky, tie('value'), { maxKeys: 3 }),
  ),
})).value;
const object = fc.dictionary(tricky, value, { maxKeys: 4 });
const spacing = fc.constantFrom(undefined, 0, 1, 2, '\t', ' \r\n');

describe('eachArrayObject', () => {
  it('property: an array of objects, however spaced, reads as JSON.parse reads it', () => {
    fc.assert(
      fc.property(fc.array(object, { maxLength: 5 }), spacing, pieceSizes, (items, space, pieces) => {
        const text = JSON.stringify(items, null, space);
        expect(read(text, pieces)).toStrictEqual(JSON.parse(text));
      }),
      { numRuns: 400 },
    );
  });

  it('property: a text damaged anywhere is read as JSON.parse reads it, or declined', () => {
    const damage = fc.record({
      at: fc.nat(),
      cut: fc.nat({ max: 3 }),
      insert: fc.constantFrom('', '"', '\\', '{', '}', '[', ']', ',', ' ', '1', 'x', '\uFEFF', '😀'),
    });
    fc.assert(
      fc.property(
        fc.array(object, { maxLength: 4 }),
        spacing,
        damage,
        pieceSizes,
        (items, space, d, pieces) => {
          const text = JSON.stringify(items, null, space);
          const at = d.at % (text.length + 1);
          expectAgrees(text.slice(0, at) + d.insert + text.slice(at + d.cut), pieces);
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('property: a file many batches and reads long reads as JSON.parse reads it, damaged or not', () => {
    // ~600 bytes an object: 300 objects span several of the reader's 32 KB batches and 64 KB reads.
    const filler = 'x'.repeat(560);
    const items = Array.from({ length: 300 }, (_, i) => ({ i, s: `${filler}"{[\\`, n: { a: [i] } }));
    const text = JSON.stringify(items, null, 1);
    expect(read(text)).toStrictEqual(items);
    expect(read(text, [4093, 1, 70_000])).toStrictEqual(items);
    fc.assert(
      fc.property(fc.nat(), fc.constantFrom('', '}', '"', ',', '\\'), (at, insert) => {
        const cut = at % text.length;
        expectAgrees(text.slice(0, cut) + insert + text.slice(cut + 1));
      }),
      { numRuns: 60 },
    );
  });

  it('reads an object longer than its buffer, whole', () => {
    // One object of 300 KB: the 64 KB read buffer must grow to hold it.
    const big = [{ a: 'y'.repeat(300_000), b: [1, { c: '}' }] }, { d: 2 }];
    const text = JSON.stringify(big);
    expect(read(text)).toStrictEqual(big);
    expect(read(text, [65_535, 3])).toStrictEqual(big);
    // Read a few bytes at a time, as a pipe may hand it over: the scan goes on where it stopped.
    expect(read(text, [7])).toStrictEqual(big);
  });

  it.each([
    ['an empty array', '[]', []],
    ['an empty array with spaces', ' \n[ \t]\r\n', []],
    ['empty objects', '[{},{ }]', [{}, {}]],
    ['a string ending in an escaped backslash', '[{"a":"x\\\\"},{"b":"]"}]', [{ a: 'x\\' }, { b: ']' }]],
    ['an escaped quote before a brace', '[{"a":"\\"}"}]', [{ a: '"}' }]],
    ['a __proto__ key, kept as an own key', '[{"__proto__":1}]', [JSON.parse('{"__proto__":1}')]],
  ])('reads %s as JSON.parse does', (_name, text, expected) => {
    expect(read(text)).toStrictEqual(expected);
    expect(read(text)).toStrictEqual(JSON.parse(text));
  });

  it.each([
    ['a trailing comma', '[{},]'],
    ['a missing comma', '[{} {}]'],
    ['text after the array', '[{}] x'],
    ['a second array', '[{}][{}]'],
    ['an unclosed array', '[{}'],
    ['an unclosed object', '[{"a":1]'],
    ['an unclosed string', '[{"a":"}]'],
    ['a byte-order mark', '\uFEFF[{}]'],
    ['an item that is not an object', '[{}, 1]'],
    ['an array item', '[[]]'],
    ['an object, not an array', '{"a":1}'],
    ['nothing', ''],
    ['mismatched brackets inside an item', '[{"a":[}]]'],
    ['a bad value inside an item', '[{"a":tru}]'],
  ])('declines %s (the whole parse then decides)', (_name, text) => {
    expect(read(text)).toBeUndefined();
  });

  it('stops at the first object the visitor declines and says so', () => {
    const seen: unknown[] = [];
    const ok = eachArrayObject(readFrom(Buffer.from('[{"a":1},{"a":2},{"a":3}]')), (item) => {
      seen.push(item);
      return seen.length < 2;
    });
    expect(ok).toBe(false);
    expect(seen).toStrictEqual([{ a: 1 }, { a: 2 }]);
  });
});
