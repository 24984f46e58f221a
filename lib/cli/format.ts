/** Small text helpers shared by the human-readable outputs. */

/** Integers as is; other numbers with up to 4 decimals (trailing zeros dropped). */
export function formatNumber(n: number): string {
  if (Number.isInteger(n)) return String(n);
  const fixed = n.toFixed(4).replace(/\.?0+$/, '');
  return fixed === '-0' ? '0' : fixed;
}

export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}

/** `host`, or `host (node N)` when the node name differs (Ironic, multi-node drivers). */
export function hostLabel(h: { host: string; nodename: string }): string {
  return h.nodename === h.host ? h.host : `${h.host} (node ${h.nodename})`;
}

/** Rows laid out in columns two spaces apart; `right` lists the columns aligned right (numbers). */
export function columns(rows: readonly string[][], right: readonly number[] = []): string[] {
  const widths: number[] = [];
  for (const row of rows) {
    for (let i = 0; i < row.length; i++) widths[i] = Math.max(widths[i] ?? 0, row[i].length);
  }
  return rows.map((row) =>
    row
      .map((cell, i) => (right.includes(i) ? cell.padStart(widths[i]) : cell.padEnd(widths[i])))
      .join('  ')
      .trimEnd(),
  );
}

/** The first `limit` items and how many were left out. */
export function capped<T>(items: readonly T[], limit: number): { shown: readonly T[]; rest: number } {
  return { shown: items.slice(0, limit), rest: Math.max(0, items.length - limit) };
}

export function indent(lines: readonly string[], by: string): string[] {
  return lines.map((line) => by + line);
}
