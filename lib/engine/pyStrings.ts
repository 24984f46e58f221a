/**
 * Python's handling of `str` where Nova's behaviour depends on it: `int()` and `float()` of a
 * string, `str.split()` with no argument, and string ordering. JS differs in each (whitespace sets,
 * accepted number syntax, UTF-16 ordering), so Placid spells Python's rules out once, here.
 */

/** Python's int() on a string: optional sign and digits, surrounding whitespace allowed. */
export function pyInt(v: string): number | undefined {
  const s = v.trim();
  return /^[+-]?\d+$/.test(s) ? Number.parseInt(s, 10) : undefined;
}

/** Python's float() on a string (inf/nan included); undefined where Python raises ValueError. */
export function pyFloat(v: string): number | undefined {
  // Python accepts single underscores between digits ('1_000.5').
  const raw = v.trim().toLowerCase();
  if (/_(?!\d)|(?<!\d)_/.test(raw)) return undefined;
  const s = raw.replaceAll('_', '');
  if (/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/.test(s)) return Number.parseFloat(s);
  if (/^[+-]?(inf|infinity)$/.test(s)) return s.startsWith('-') ? -Infinity : Infinity;
  if (/^[+-]?nan$/.test(s)) return Number.NaN;
  return undefined;
}

/** Python's `str.isspace()` (JS `\s` differs: it has U+FEFF but lacks U+001C-U+001F and U+0085). */
function isPySpace(c: number): boolean {
  return (
    c === 0x20 ||
    (c >= 0x09 && c <= 0x0d) ||
    (c >= 0x1c && c <= 0x1f) ||
    c === 0x85 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000
  );
}

/** Python's `str.split()` with no argument: runs of whitespace separate, no empty words. */
export function pySplit(text: string): string[] {
  const words: string[] = [];
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    const space = i === text.length || isPySpace(text.charCodeAt(i));
    if (space && start >= 0) {
      words.push(text.slice(start, i));
      start = -1;
    } else if (!space && start < 0) start = i;
  }
  return words;
}

/**
 * Python's string ordering (code points). JS compares UTF-16 units, which puts astral characters
 * (surrogate pairs) before U+E000-U+FFFF; Python puts them after.
 */
export function comparePyStrings(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? (y >= 0xe000 ? 1 : x - y) : x >= 0xe000 ? -1 : x - y;
    return x - y;
  }
  return a.length - b.length;
}
