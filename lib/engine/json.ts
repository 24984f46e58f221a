/**
 * Host values that Nova keeps as JSON strings (cpu_info, some stats), parsed where a filter walks
 * below them: `JSON.parse(text)`, or undefined for invalid JSON and for `null` (both read as None).
 */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) ?? undefined;
  } catch {
    return undefined;
  }
}
