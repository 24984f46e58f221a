import { createHash } from 'node:crypto';

export function md5Hex(text: string): string {
  return createHash('md5').update(text, 'utf8').digest('hex');
}

export interface TypedAttribute {
  dataType: string;
  value: string;
}

/**
 * SQS's MD5 of message attributes: for each attribute, sorted by name, the name, data type and
 * value each prefixed by a 4-byte big-endian length, with a transport byte (1 = string) before the value.
 */
export function md5OfMessageAttributes(attributes: Record<string, TypedAttribute>): string | undefined {
  const names = Object.keys(attributes).sort();
  if (names.length === 0) return undefined;
  const hash = createHash('md5');
  const field = (text: string): void => {
    const bytes = Buffer.from(text, 'utf8');
    const length = Buffer.alloc(4);
    length.writeUInt32BE(bytes.length);
    hash.update(length).update(bytes);
  };
  for (const name of names) {
    field(name);
    field(attributes[name].dataType);
    hash.update(Buffer.of(1));
    field(attributes[name].value);
  }
  return hash.digest('hex');
}
