/** Column layout for the terminal: widths from the plain text, colour added after padding. */
import type { Paint, Style } from './ansi.js';

export interface Cell {
  text: string;
  style?: Style;
}

/** Rows two spaces apart; columns in `right` are aligned right (numbers). */
export function layoutRows(rows: readonly Cell[][], paint: Paint, right: readonly number[] = []): string[] {
  const widths: number[] = [];
  for (const row of rows) {
    for (const [i, c] of row.entries()) widths[i] = Math.max(widths[i] ?? 0, [...c.text].length);
  }
  return rows.map((row) =>
    row
      .map((c, i) => {
        const gap = ' '.repeat(widths[i] - [...c.text].length);
        const text = c.style ? paint(c.style, c.text) : c.text;
        return right.includes(i) ? gap + text : text + gap;
      })
      .join('  ')
      .trimEnd(),
  );
}
