/**
 * The input of `placid ingest`: one report message (JSON), a JSON array of messages, or JSON Lines
 * (one message per line). Each message keeps where it came from, so a rejection can point at it.
 */
import { MAX_INPUT_BYTES, readTextFile, tooLarge } from '../config/files.js';
import { InputError } from './errors.js';

export interface InputMessage {
  body: string;
  /** e.g. `line 3`, `[2]`, or the file's name for a single-message file. */
  where: string;
}

/** Reads FILE, or standard input for `-`. */
export async function readReportInput(
  path: string,
  stdin: AsyncIterable<string | Buffer> = process.stdin,
): Promise<{ messages: InputMessage[]; source: string }> {
  const source = path === '-' ? 'standard input' : path;
  const text =
    path === '-'
      ? await readAll(stdin)
      : await readTextFile(
          path,
          (reason, cause) => new InputError(`cannot read ${path}: ${reason}`, { cause }),
        );
  return { messages: splitMessages(text, source), source };
}

/**
 * Splits a document into message bodies. A document that is JSON is one message, or a message per
 * element when it is an array; otherwise, when its first line is JSON, it is JSON Lines. Anything
 * else is sent as one message, for the ingest stage to reject with its reason.
 */
export function splitMessages(text: string, source: string): InputMessage[] {
  const trimmed = text.trim();
  if (trimmed === '') throw new InputError(`${source} is empty: expected report messages`);
  const whole = tryParse(trimmed);
  if (whole.ok && Array.isArray(whole.value)) {
    if (whole.value.length === 0)
      throw new InputError(`${source} is an empty array: expected report messages`);
    return whole.value.map((m, i) => ({ body: JSON.stringify(m), where: `[${i}]` }));
  }
  if (whole.ok) return [{ body: trimmed, where: source }];
  const lines = text.split(/\r?\n/).map((line, i) => ({ body: line.trim(), where: `line ${i + 1}` }));
  const nonEmpty = lines.filter((l) => l.body !== '');
  if (nonEmpty.length > 1 && tryParse(nonEmpty[0].body).ok) return nonEmpty;
  return [{ body: trimmed, where: source }];
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

async function readAll(stream: AsyncIterable<string | Buffer>): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    total += chunks[chunks.length - 1].length;
    if (total > MAX_INPUT_BYTES)
      throw new InputError(`cannot read standard input: ${tooLarge(MAX_INPUT_BYTES)}`);
  }
  return Buffer.concat(chunks).toString('utf8');
}
