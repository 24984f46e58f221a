/** Python's str() for the scalar types that appear in Nova metadata. */
export function pyStr(v: string | number | boolean): string {
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  return String(v);
}
