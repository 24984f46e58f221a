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

// ESC-introduced sequences whole (CSI `ESC [ … final`, OSC `ESC ] … BEL|ST`, DCS/APC/PM/SOS
// `ESC P|_|^|X … ST`, two-byte `ESC x`), then every other control character: C0 but tab and newline,
// DEL, and C1 (U+0080–U+009F; U+009B is a one-character CSI on some terminals).
const ESCAPE_SEQUENCE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
  /\u001b\[[0-?]*[ -/]*[@-~]?|\u001b[\]P_^X][^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?|\u001b[\s\S]?/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * Text safe to print on a terminal: host names, plan ids, reasons and other operator- or
 * report-supplied strings cannot move the cursor, retitle the window (OSC) or hide earlier output.
 * Every readable (non-JSON) output of the CLI goes through it; JSON output is escaped by JSON itself.
 */
export function terminalSafe(text: string): string {
  return text.replace(ESCAPE_SEQUENCE, '').replace(CONTROL, '');
}
