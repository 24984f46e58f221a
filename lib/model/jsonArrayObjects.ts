/**
 * The objects of a JSON array, read from a byte stream and parsed a batch at a time.
 *
 * Why: `JSON.parse` of a whole 20k-host file builds every raw host before the first is checked, so
 * the collector copies (and promotes) the full parse tree while the host states are built beside
 * it. Parsed a batch at a time, each raw object dies young and only what is kept survives: at 20k
 * hosts that halved `placid schedule`'s garbage-collection time. Read in small pieces into one
 * reused buffer, the file never needs 9 MB of fresh memory either (~25 ms of page faults, and the
 * early full collection that much outside memory set off).
 *
 * The rule that keeps this safe: it answers only when the bytes are exactly `[ object, object, ...
 * ]` with JSON whitespace between, and every batch of objects parsed on its own. Such a text is
 * valid JSON and `JSON.parse` of it is the array of those objects, so the caller sees what the
 * whole parse would give. Anything else (another value, an item that is not an object, a text the
 * whole parse would refuse) answers false, and the caller parses the whole file as before, which
 * also words the error. A multi-byte UTF-8 sequence never holds an ASCII byte, so the structural
 * bytes this reader looks for cannot split one, and neither can a batch's edges.
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

/** The read buffer's first size; it doubles only for an object longer than it. */
const WINDOW_BYTES = 1 << 16;

/**
 * Fills `buffer[offset, offset + length)` with the stream's next bytes and says how many it wrote:
 * 0 at the end (fs.readSync's contract).
 */
export type ReadInto = (buffer: Buffer, offset: number, length: number) => number;

/**
 * Calls `visit` with each object of the JSON array that `read` yields, in order, until it returns
 * false. True when every object was visited and accepted; false when `visit` declined one or the
 * bytes are not an array of objects this reader takes (then nothing about them is implied, and
 * the stream may be partly read).
 */
export function eachArrayObject(read: ReadInto, visit: (item: unknown) => boolean): boolean {
  const s = new ByteWindow(read);
  let at = s.afterSpace(0, 0);
  if (s.byte(at, at) !== OPEN_BRACKET) return false;
  at = s.afterSpace(at + 1, at + 1);
  if (s.byte(at, at) === CLOSE_BRACKET) return s.endsAfter(at, at);
  // The batch: `count` whole objects from `start` to `end` (stream offsets), `ws , ws` between.
  let start = at;
  let end = at;
  let count = 0;
  // One scan state, reset for each object (no allocation per host).
  const scan: ObjectScan = { at: 0, depth: 0, inString: false };
  for (;;) {
    if (s.byte(at, start) !== OPEN_BRACE) return false;
    scan.at = at;
    scan.depth = 0;
    scan.inString = false;
    let close = objectEnd(s, scan);
    while (close < 0) {
      // The window ends inside this object: parse the batch before it, then read on (the scan
      // goes on where it stopped, so a long object is scanned once).
      if (count > 0 && !s.visitBatch(start, end, count, visit)) return false;
      start = at;
      count = 0;
      if (!s.fill(at)) return false;
      close = objectEnd(s, scan);
    }
    end = close;
    count++;
    at = s.afterSpace(end, start);
    const c = s.byte(at, start);
    if (c === CLOSE_BRACKET) return s.endsAfter(at, start) && s.visitBatch(start, end, count, visit);
    if (c !== COMMA) return false;
    at = s.afterSpace(at + 1, start);
    if (end - start >= BATCH_BYTES) {
      if (!s.visitBatch(start, end, count, visit)) return false;
      start = at;
      count = 0;
    }
  }
}

/**
 * The stream's bytes from `base` on, in one reused buffer. Offsets are the stream's; each read
 * names the first offset still needed (`keep`), and the bytes before it may be dropped.
 */
class ByteWindow {
  buf = Buffer.allocUnsafe(WINDOW_BYTES);
  /** The stream offset of buf[0]. */
  base = 0;
  /** How many bytes of buf hold data. */
  filled = 0;
  private ended = false;

  constructor(private readonly read: ReadInto) {}

  /** The byte at stream offset `at` (at least `keep`), or -1 past the end of the stream. */
  byte(at: number, keep: number): number {
    while (at - this.base >= this.filled) if (!this.fill(keep)) return -1;
    return this.buf[at - this.base];
  }

  /** The stream offset after JSON whitespace from `at`. */
  afterSpace(at: number, keep: number): number {
    for (;;) {
      const c = this.byte(at, keep);
      if (c !== SPACE && c !== LF && c !== CR && c !== TAB) return at;
      at++;
    }
  }

  /** True when only JSON whitespace follows the byte at `at`. */
  endsAfter(at: number, keep: number): boolean {
    return this.byte(this.afterSpace(at + 1, keep), keep) === -1;
  }

  /**
   * Reads more of the stream after what the buffer holds, first dropping the bytes before `keep`
   * (and doubling the buffer when it is all still needed); false at the end of the stream.
   */
  fill(keep: number): boolean {
    if (this.ended) return false;
    const drop = keep - this.base;
    if (drop > 0) {
      this.buf.copy(this.buf, 0, drop, this.filled);
      this.filled -= drop;
      this.base = keep;
    }
    if (this.filled === this.buf.length) {
      const wider = Buffer.allocUnsafe(this.buf.length * 2);
      this.buf.copy(wider, 0, 0, this.filled);
      this.buf = wider;
    }
    const n = this.read(this.buf, this.filled, this.buf.length - this.filled);
    if (n <= 0) {
      this.ended = true;
      return false;
    }
    this.filled += n;
    return true;
  }

  /** Parses the `count` objects from `start` to `end` and visits each; false when either fails. */
  visitBatch(start: number, end: number, count: number, visit: (item: unknown) => boolean): boolean {
    let items: unknown[];
    try {
      items = JSON.parse(`[${this.buf.toString('utf8', start - this.base, end - this.base)}]`);
    } catch {
      return false;
    }
    // Valid JSON, the batch splits where this reader split it; the count is checked all the same.
    if (items.length !== count) return false;
    for (let k = 0; k < count; k++) if (!visit(items[k])) return false;
    return true;
  }
}

/** Reads `bytes` as a stream (tests, and callers that hold a file's bytes already). */
export function readFrom(bytes: Uint8Array): ReadInto {
  let at = 0;
  return (buffer, offset, length) => {
    const n = Math.min(length, bytes.length - at);
    buffer.set(bytes.subarray(at, at + n), offset);
    at += n;
    return n;
  };
}

/** How far the scan of one object has got: the next byte (a stream offset), nesting, in a string. */
interface ObjectScan {
  at: number;
  depth: number;
  inString: boolean;
}

/**
 * The stream offset after the brace that closes the object `scan` is in, or -1 when the window's
 * bytes end first (`scan` then says where to go on). Brackets inside strings do not count;
 * mismatched ones are left for JSON.parse to refuse.
 */
function objectEnd(s: ByteWindow, scan: ObjectScan): number {
  const { buf, base, filled } = s;
  let { depth, inString } = scan;
  let i = scan.at - base;
  for (; i < filled; i++) {
    const c = buf[i];
    if (inString) {
      // The byte after a backslash is escaped, whatever it is (the next window's first, maybe).
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
    else if ((c === CLOSE_BRACE || c === CLOSE_BRACKET) && --depth === 0) return base + i + 1;
  }
  scan.at = base + i;
  scan.depth = depth;
  scan.inString = inString;
  return -1;
}
