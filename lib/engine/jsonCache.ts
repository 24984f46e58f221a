/**
 * Host values that Nova keeps as JSON strings (cpu_info, some stats) are parsed on the hot path.
 * Hosts share identical strings and V8 caches a string's hash, so a cache by text is cheap and
 * parses each distinct string once.
 */
const cache = new Map<string, unknown>();
const CACHE_LIMIT = 10_000;
const INVALID = Symbol('invalid JSON');

/** `JSON.parse(text)`, cached by text; undefined for invalid JSON and for `null`. */
export function parseJsonCached(text: string): unknown {
  let parsed = cache.get(text);
  if (parsed === undefined) {
    try {
      parsed = JSON.parse(text) ?? INVALID; // null is cached as INVALID too: both read as None
    } catch {
      parsed = INVALID;
    }
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(text, parsed);
  }
  return parsed === INVALID ? undefined : parsed;
}
