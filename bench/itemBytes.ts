/**
 * An item's size as DynamoDB bills it (docs: "Item sizes and formats"): each attribute's name
 * plus its value; strings and binaries by their bytes, numbers about one byte per two digits plus
 * one, maps and lists 3 bytes plus their elements (map keys count like names).
 */
export function itemBytes(item: Record<string, unknown>): number {
  let bytes = 0;
  for (const [name, value] of Object.entries(item)) bytes += Buffer.byteLength(name) + valueBytes(value);
  return bytes;
}

function valueBytes(value: unknown): number {
  if (typeof value === 'string') return Buffer.byteLength(value);
  if (typeof value === 'number') return Math.ceil(String(value).replace(/[-.]/g, '').length / 2) + 1;
  if (typeof value === 'boolean' || value === null) return 1;
  if (value instanceof Uint8Array) return value.byteLength;
  if (Array.isArray(value)) return 3 + value.reduce((n: number, v) => n + valueBytes(v) + 1, 0);
  if (typeof value === 'object') {
    let n = 3;
    for (const [k, v] of Object.entries(value as Record<string, unknown>))
      n += Buffer.byteLength(k) + valueBytes(v) + 1;
    return n;
  }
  return 0;
}
