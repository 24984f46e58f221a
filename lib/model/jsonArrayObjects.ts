/**
 * The objects of a JSON array text, parsed one at a time.
 *
 * Why: `JSON.parse` of a whole 20k-host file builds every raw host before the first is checked, so
 * the collector copies (and promotes) the full parse tree while the host states are built beside
 * it. Parsed one by one, each raw object dies young and only what is kept survives: at 20k hosts
 * that was a third of `placid schedule`'s garbage-collection time.
 *
 * The rule that keeps this safe: it answers only when the text is exactly `[ object, object, ... ]`
 * with JSON whitespace between, and every object's text parsed on its own. Such a text is valid
 * JSON and `JSON.parse` of it is the array of those objects, so the caller sees what the whole
 * parse would give. Anything else (another value, an item that is not an object, a text the whole
 * parse would refuse) answers false, and the caller decodes and parses the whole text as before,
 * which also words the error.
 */

const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/**
 * Objects are parsed a batch of about this many bytes at a time: one JSON.parse and one decode per
 * batch instead of per object (at 20k hosts, ~25 ms less), while a batch's raw objects still die
 * young. Much larger batches are decoded into strings too big for the young generation.
 */
const BATCH_BYTES = 1 << 15;

/**
 * Calls `visit` with each object of the array in `json` (UTF-8 bytes), in order, until it returns
 * false. True when every object was visited and accepted; false when `visit` declined one or the
 * bytes are not an array of objects this reader takes (then nothing about them is implied).
 *
 * Bytes, not a string: a 9 MB file decoded whole was ~35 ms of fresh pages before the first host
 * was read. A multi-byte UTF-8 sequence never holds an ASCII byte, so the structural bytes this
 * reader looks for cannot split one.
 */
export function eachArrayObject(json: Buffer, visit: (item: unknown) => boolean): boolean {
  let i = afterSpace(json, 0);
  if (json[i] !== OPEN_BRACKET) return false;
  i = afterSpace(json, i + 1);
  if (json[i] === CLOSE_BRACKET) return afterSpace(json, i + 1) === json.length;
  for (;;) {
    // A batch: whole objects from `start` to `end`, with only `ws , ws` between them.
    const start = i;
    let end = i;
    let count = 0;
    let last = false;
    do {
      if (json[i] !== OPEN_BRACE) return false;
      end = objectEnd(json, i);
      if (end < 0) return false;
      count++;
      i = afterSpace(json, end);
      if (json[i] === CLOSE_BRACKET) {
        if (afterSpace(json, i + 1) !== json.length) return false;
        last = true;
      } else if (json[i] === COMMA) i = afterSpace(json, i + 1);
      else return false;
    } while (!last && end - start < BATCH_BYTES);
    const items = parsedBatch(json, start, end);
    // Valid JSON, the batch splits where this reader split it; the count is checked all the same.
    if (items === undefined || items.length !== count) return false;
    for (let k = 0; k < count; k++) if (!visit(items[k])) return false;
    if (last) return true;
  }
}

/** The objects of json[start, end) (objects and the commas between), or undefined if not JSON. */
function parsedBatch(json: Buffer, start: number, end: number): unknown[] | undefined {
  try {
    return JSON.parse(`[${json.toString('utf8', start, end)}]`);
  } catch {
    return undefined;
  }
}

/** The index after JSON whitespace from `i`. */
function afterSpace(json: Buffer, i: number): number {
  for (;;) {
    const c = json[i];
    if (c !== SPACE && c !== LF && c !== CR && c !== TAB) return i;
    i++;
  }
}

/**
 * The index after the brace that closes the object opening at `start`, or -1 when the bytes end
 * first. Brackets inside strings do not count; mismatched ones are left for JSON.parse to refuse.
 */
function objectEnd(json: Buffer, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < json.length; i++) {
    const c = json[i];
    if (inString) {
      // The byte after a backslash is escaped, whatever it is.
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
    else if ((c === CLOSE_BRACE || c === CLOSE_BRACKET) && --depth === 0) return i + 1;
  }
  return -1;
}
