/** The opaque cursor of hostsChangedSince: a base64url JSON `{v, since}` so it can change shape later. */
import { ValidationError } from '../model/errors.js';

interface CursorBody {
  v: 1;
  /** Epoch ms: when the read that returned this cursor began (reader's clock). */
  since: number;
}

export function encodeCursor(since: number): string {
  return Buffer.from(JSON.stringify({ v: 1, since } satisfies CursorBody)).toString('base64url');
}

/** The `since` of a cursor; 0 (everything) when there is none. */
export function decodeCursor(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  let body: Partial<CursorBody> | undefined;
  try {
    body = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    body = undefined;
  }
  if (body?.v !== 1 || typeof body.since !== 'number' || !Number.isFinite(body.since)) {
    throw new ValidationError('cursor', [
      { path: '', message: 'is not a cursor returned by hostsChangedSince (pass none to read everything)' },
    ]);
  }
  return body.since;
}
