/**
 * Marks an object as secret: it still reads like the original (`creds.password` works), but
 * printing it — JSON.stringify, console.log / util.inspect, String(), a template literal — shows
 * `[redacted]`, so a stray log line cannot leak it.
 */
import { inspect } from 'node:util';

export const REDACTED = '[redacted]';

const marker = Symbol('placid.redacted');

/** A shallow copy of `value` that prints as `[redacted]`. */
export function redacted<T extends object>(value: T): T {
  const copy = (Array.isArray(value) ? [...value] : { ...value }) as T;
  const hidden = { enumerable: false, configurable: false, writable: false };
  Object.defineProperties(copy, {
    toJSON: { ...hidden, value: () => REDACTED },
    toString: { ...hidden, value: () => REDACTED },
    [inspect.custom]: { ...hidden, value: () => REDACTED },
    [marker]: { ...hidden, value: true },
  });
  return copy;
}

export function isRedacted(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { [marker]?: boolean })[marker] === true;
}

/** Shorter secrets are left alone: blanking a 3-letter string would shred unrelated text. */
export const MIN_SCRUBBED_CHARS = 4;

/**
 * Every form a secret can come back in when a server or proxy reflects the request: raw, escaped
 * inside a JSON string (once, or twice when the reflection is itself embedded in JSON),
 * URL-encoded (path/query and form style), UTF-8 bytes read as Latin-1, hex, and base64 (a `Basic` header carries
 * base64("user:password"); pass that pair as its own secret too). Base64 of a longer text holds the
 * secret at any of three alignments: each gives its own run of characters. Case is ignored when
 * scrubbing, so an upper-cased echo (or upper-case hex) is caught too.
 */
export function secretForms(secret: string): string[] {
  const jsonOnce = JSON.stringify(secret).slice(1, -1);
  const jsonTwice = JSON.stringify(jsonOnce).slice(1, -1);
  const forms = [
    secret,
    jsonOnce,
    jsonTwice,
    uriEncoded(secret),
    new URLSearchParams({ s: secret }).toString().slice(2),
    Buffer.from(secret).toString('base64'),
    Buffer.from(secret).toString('base64url'),
    ...base64Runs(Buffer.from(secret)),
    Buffer.from(secret).toString('hex'),
  ];
  // A UTF-8 header value read back as Latin-1 (what Node's HTTP parser does with non-ASCII bytes).
  forms.push(Buffer.from(secret).toString('latin1'));
  // Also the lower-case percent-encoding some proxies write back.
  forms.push(uriEncoded(secret).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()));
  return [...new Set(forms)].filter((f) => f.length >= MIN_SCRUBBED_CHARS);
}

/**
 * The base64 (and base64url) characters that depend on the secret's bytes alone, for each of the
 * three offsets it can sit at inside a longer encoded text.
 */
function base64Runs(bytes: Buffer): string[] {
  const runs: string[] = [];
  for (let pad = 0; pad < 3; pad++) {
    const text = Buffer.concat([Buffer.alloc(pad), bytes]).toString('base64');
    const first = Math.ceil((8 * pad) / 6);
    const end = Math.floor((8 * (pad + bytes.length)) / 6);
    const run = text.slice(first, end);
    runs.push(run, run.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return runs;
}

/** encodeURIComponent, except that a lone surrogate (which it refuses) is encoded as U+FFFD. */
function uriEncoded(text: string): string {
  const wellFormed = text.replace(
    /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
    '\ufffd',
  );
  return encodeURIComponent(wellFormed);
}

/** The secret strings of a Basic auth pair: the password and the header's base64 of "user:password". */
export function basicAuthSecrets(username: string, password: string): string[] {
  return [password, `${username}:${password}`];
}

/**
 * Blanks every form (see secretForms) of every secret out of `text`, longest first so a form that
 * contains another is removed whole. Call it on the full text, before any truncation: a cut can
 * split a secret into a fragment no longer recognisable as one.
 */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  const forms = secrets
    .filter((s) => s.length >= MIN_SCRUBBED_CHARS)
    .flatMap(secretForms)
    .sort((a, b) => b.length - a.length);
  let clean = text;
  for (const form of forms) clean = clean.replace(new RegExp(escapeRegExp(form), 'gi'), REDACTED);
  return clean;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
