/**
 * Escaping for the two outputs. VM names, reasons and errors are operator data: in HTML they must
 * never become markup, and in a terminal they must never become control sequences.
 */

const HTML_ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Safe as element text and as a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ENTITIES[c]);
}

/** Drops C0/C1 control characters (ESC included), so data cannot move the cursor or set colours. */
export function plainText(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');
}
