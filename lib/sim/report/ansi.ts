/** ANSI styling that switches off entirely, so the same code prints plain text for pipes and files. */

export type Style = 'bold' | 'dim' | 'green' | 'red' | 'yellow' | 'alarm';

const CODES: Record<Style, [string, string]> = {
  bold: ['\u001b[1m', '\u001b[22m'],
  dim: ['\u001b[2m', '\u001b[22m'],
  green: ['\u001b[32m', '\u001b[39m'],
  red: ['\u001b[31m', '\u001b[39m'],
  yellow: ['\u001b[33m', '\u001b[39m'],
  alarm: ['\u001b[1;97;41m', '\u001b[0m'],
};

export type Paint = (style: Style, text: string) => string;

export function painter(color: boolean): Paint {
  return color
    ? (style, text) => (text === '' ? text : `${CODES[style][0]}${text}${CODES[style][1]}`)
    : (_style, text) => text;
}
