import { ConfigError } from '../model/errors.js';

/**
 * Every value one key was given in an INI file, in file order, with the line of each. oslo.config
 * keeps them all: a MultiStrOpt uses every value, any other option the last one.
 */
export class IniValues {
  readonly values: string[] = [];
  readonly lines: number[] = [];

  add(value: string, line: number): void {
    this.values.push(value);
    this.lines.push(line);
  }

  get last(): string {
    return this.values[this.values.length - 1];
  }

  get lastLine(): number {
    return this.lines[this.lines.length - 1];
  }
}

/**
 * A parsed INI file: group → key → values. Both levels are null-prototype objects, so a group or key
 * named `__proto__`, `constructor` or `toString` is an ordinary name, never Object.prototype's.
 */
export type IniDocument = Record<string, Record<string, IniValues>>;

/**
 * Parses oslo.config-style INI text (nova.conf). `[group]` headers (names lowercased except `DEFAULT`,
 * as oslo does), `key = value` or `key: value` (split at whichever comes first), `#`/`;` comment lines,
 * indented continuation lines (joined with newlines; a blank line ends them), surrounding quotes
 * stripped, repeated keys and repeated sections accumulated. Like oslo, `#` after a value is kept.
 */
export function parseIni(text: string, source: string): IniDocument {
  const doc: IniDocument = Object.create(null);
  let group: string | undefined;
  let pending: { key: string; parts: string[]; line: number } | undefined;
  const flush = () => {
    if (!pending || group === undefined) return;
    const entries = doc[group];
    entries[pending.key] ??= new IniValues();
    entries[pending.key].add(pending.parts.join('\n'), pending.line);
    pending = undefined;
  };
  const fail: Fail = (line, problem) => {
    throw new ConfigError(`${source}:${line}: ${problem}`);
  };

  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const lineNo = i + 1;
    const line = lines[i].trimEnd();
    const content = line.trimStart();
    if (content === '') {
      flush();
      continue;
    }
    // oslo would append an indented comment to the value above; nobody means that, so it is a comment.
    if (content.startsWith('#') || content.startsWith(';')) continue;
    if (content !== line) {
      if (!pending) fail(lineNo, `indented line continues no option: ${JSON.stringify(content)}`);
      pending.parts.push(content);
      continue;
    }
    flush();
    if (line.startsWith('[')) {
      group = sectionName(line, lineNo, fail);
      doc[group] ??= Object.create(null);
      continue;
    }
    const [key, value] = splitAssignment(line, lineNo, fail);
    if (group === undefined) fail(lineNo, `option ${key} comes before any [group] header`);
    pending = { key, parts: [value], line: lineNo };
  }
  flush();
  return doc;
}

type Fail = (line: number, problem: string) => never;

function sectionName(line: string, lineNo: number, fail: Fail): string {
  if (!line.endsWith(']')) fail(lineNo, `group header ${line} has no closing ]`);
  const name = line.slice(1, -1).trim();
  if (name === '') fail(lineNo, 'group header [] has no name');
  return name === 'DEFAULT' ? name : name.toLowerCase();
}

function splitAssignment(line: string, lineNo: number, fail: Fail): [string, string] {
  const equal = line.indexOf('=');
  const colon = line.indexOf(':');
  if (equal < 0 && colon < 0) fail(lineNo, `expected "key = value", got ${JSON.stringify(line)}`);
  const at = colon < 0 || (equal >= 0 && equal < colon) ? equal : colon;
  const key = line.slice(0, at).trim();
  if (key === '') fail(lineNo, `option name missing before ${JSON.stringify(line[at])}`);
  return [key, unquote(line.slice(at + 1).trim())];
}

function unquote(value: string): string {
  const q = value[0];
  return value.length >= 2 && (q === '"' || q === "'") && value.endsWith(q) ? value.slice(1, -1) : value;
}
