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
