/** Small helpers for writing SVG as strings. */
import { escapeHtml } from '../escape.js';

/** A coordinate with at most two decimals: enough for the screen, short in the file. */
export function n(value: number): string {
  return String(Math.round(value * 100) / 100);
}

/** `data-tip="…"`: the text the page's tooltip shows (line breaks kept), escaped. */
export function tip(lines: readonly (string | undefined)[]): string {
  return `data-tip="${escapeHtml(lines.filter((l) => l !== undefined).join('\n'))}"`;
}

/** `<text>` with escaped content. */
export function text(x: number, y: number, content: string, attrs = ''): string {
  return `<text x="${n(x)}" y="${n(y)}"${attrs ? ` ${attrs}` : ''}>${escapeHtml(content)}</text>`;
}
