import type { ScheduleDecision } from './explain.js';

/** The size of each piece handed to `write` (the last may be shorter). */
const CHUNK_BYTES = 1 << 16;

/** Where writeDecisionJson's UTF-8 pieces go; each piece is whole characters, and is not reused. */
export type Utf8Sink = (chunk: Buffer) => void;

/**
 * `JSON.stringify(decisionJson(decision, numInstances), null, 2)` as UTF-8, byte for byte, handed to
 * `write` in pieces of CHUNK_BYTES and without building the rows. Over 20k hosts the rows (13k
 * eliminations, 6.6k weights), the 3.8 MB string and its UTF-8 copy were most of `--json`'s cost,
 * and their garbage paid for a scavenge of everything the decision left young. Every value still
 * goes through JSON.stringify, so escaping and number formatting are exactly its own.
 */
export function writeDecisionJson(decision: ScheduleDecision, numInstances: number, write: Utf8Sink): void {
  const multi = numInstances > 1;
  const out = new Utf8Chunks(write);
  const list = new ListText(out);
  out.text('{\n');

  list.open('selected');
  for (const p of decision.placements) list.row(p.host.host, p.host.nodename, '"\n    }');
  list.close(',\n');

  list.open('alternates');
  decision.placements.forEach((p, i) => {
    const end = multi ? `",\n      "instance_index": ${i}\n    }` : '"\n    }';
    for (const h of p.alternates) list.row(h.host, h.nodename, end);
  });
  list.close(',\n');

  list.open('weighed');
  const weighed = (decision.rankedWeights ? decision.rankedWeights() : decision.weighed) ?? [];
  for (const w of weighed)
    list.row(w.host.host, w.host.nodename, `",\n      "weight": ${JSON.stringify(w.weight)}\n    }`);
  list.close(',\n');

  list.open('eliminated');
  const ends = new EliminationEnds(multi);
  if (decision.eachElimination)
    decision.eachElimination((h, filter, index, reason) =>
      list.rowEnd(h.host, h.nodename, ends.of(filter, reason, index)),
    );
  else
    for (const e of decision.eliminated())
      list.rowEnd(e.host, e.nodename, ends.of(e.filter, e.reason, e.instance_index));
  const error = decision.error;
  list.close(error ? ',\n' : '\n');

  if (error)
    out.text(
      `  "error": {\n    "type": ${JSON.stringify(error.type)},\n    "message": ${JSON.stringify(error.message)}\n  }\n`,
    );
  out.text('}');
  out.flush();
}

/** UTF-8 gathered into CHUNK_BYTES buffers; a piece never ends inside a character. */
class Utf8Chunks {
  private buf = Buffer.allocUnsafe(CHUNK_BYTES);
  private at = 0;

  constructor(private readonly write: Utf8Sink) {}

  text(s: string): void {
    // A UTF-16 unit is at most 3 bytes of UTF-8 (a surrogate pair, two units, is 4).
    if (this.at + s.length * 3 > CHUNK_BYTES) this.flush();
    if (s.length * 3 > CHUNK_BYTES) this.write(Buffer.from(s, 'utf8'));
    else this.at += this.buf.write(s, this.at);
  }

  bytes(b: Uint8Array): void {
    if (this.at + b.length > CHUNK_BYTES) this.flush();
    if (b.length > CHUNK_BYTES) this.write(Buffer.from(b));
    else {
      this.buf.set(b, this.at);
      this.at += b.length;
    }
  }

  flush(): void {
    if (this.at === 0) return;
    this.write(this.buf.subarray(0, this.at));
    this.buf = Buffer.allocUnsafe(CHUNK_BYTES);
    this.at = 0;
  }
}

const FIRST_ROW = Buffer.from('\n    {\n      "host": "');
const NEXT_ROW = Buffer.from(',\n    {\n      "host": "');
const NODENAME = Buffer.from('",\n      "nodename": "');

/** What JSON.stringify would escape in a string: quote, backslash, controls, surrogates (lone or paired). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it looks for
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;

/** One top-level array member at a time, as JSON.stringify's two-space layout prints it. */
class ListText {
  private rows = 0;

  constructor(private readonly out: Utf8Chunks) {}

  open(key: string): void {
    this.out.text(`  ${JSON.stringify(key)}: [`);
    this.rows = 0;
  }

  /** A host row: its names, then `end` (the rest of the object from the nodename's closing quote). */
  row(host: string, nodename: string, end: string): void {
    this.names(host, nodename);
    this.out.text(end);
  }

  /** row with its end already encoded. */
  rowEnd(host: string, nodename: string, end: Uint8Array): void {
    this.names(host, nodename);
    this.out.bytes(end);
  }

  /** Closes the array, then `after` (the comma before the next member, or the last newline). */
  close(after: string): void {
    this.out.text(this.rows === 0 ? `]${after}` : `\n  ]${after}`);
  }

  private names(host: string, nodename: string): void {
    const out = this.out;
    out.bytes(this.rows++ === 0 ? FIRST_ROW : NEXT_ROW);
    const hostText = unquoted(host);
    out.text(hostText);
    out.bytes(NODENAME);
    // Nodes are usually named after their host: one test serves both.
    out.text(nodename === host ? hostText : unquoted(nodename));
  }
}

/**
 * JSON.stringify(s) without its quotes. Names seldom need escaping, and a cold pass over 20k rows
 * pays about twice as much for quoting each (a fresh string) as for testing it.
 */
function unquoted(s: string): string {
  return ESCAPED.test(s) ? JSON.stringify(s).slice(1, -1) : s;
}

/**
 * An elimination row after its names (filter, reason, instance), encoded once for each that
 * repeats: hosts of one group share their reason. At most CAP are kept, so reasons unique to
 * their host cost no more than encoding them.
 */
class EliminationEnds {
  private static readonly CAP = 256;
  private readonly seen = new Map<string, Map<string, Uint8Array>>();

  constructor(private readonly multi: boolean) {}

  of(filter: string, reason: string, index: number | undefined): Uint8Array {
    const key = this.multi && index !== undefined ? `${index} ${filter}` : filter;
    let byReason = this.seen.get(key);
    if (byReason === undefined) {
      byReason = new Map();
      if (this.seen.size < EliminationEnds.CAP) this.seen.set(key, byReason);
    }
    let end = byReason.get(reason);
    if (end === undefined) {
      const instance = key === filter ? '' : `,\n      "instance_index": ${JSON.stringify(index)}`;
      end = Buffer.from(
        `",\n      "filter": ${JSON.stringify(filter)},\n      "reason": ${JSON.stringify(reason)}${instance}\n    }`,
      );
      if (byReason.size < EliminationEnds.CAP) byReason.set(reason, end);
    }
    return end;
  }
}
