import type { OutgoingMessage } from './port.js';

/** SQS quotas that both adapters enforce, so local runs fail where AWS would. */
export const SQS_LIMITS = {
  /** SendMessageBatch accepts at most 10 entries. */
  batchEntries: 10,
  /** 256 KiB for one message and for the sum of a batch (queues may allow up to 1 MiB; pass it in then). */
  messageBytes: 262_144,
  /** At most 10 message attributes per message. */
  attributes: 10,
  /** Attribute names are at most 256 characters. */
  attributeNameLength: 256,
  /** A visibility timeout is 0..43200 s (12 hours), and a message stays in flight at most 12 hours per receive. */
  visibilitySeconds: 43_200,
} as const;

/** A refusal, shaped like the error SQS would return for the same input. */
export interface LimitViolation {
  code: 'MessageTooLong' | 'InvalidMessageContents' | 'InvalidParameterValue';
  message: string;
}

// Characters SQS accepts in bodies and attribute values (#x9 #xA #xD #x20-#xD7FF #xE000-#xFFFD #x10000+).
const FORBIDDEN_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;
const FORBIDDEN_CHARS = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const ATTRIBUTE_NAME = /^(?!\.)(?!.*\.\.)(?!.*\.$)(?!aws\.)(?!amazon\.)[A-Za-z0-9_.-]+$/i;

/** Bytes SQS counts against the size quota: body plus each attribute's name, type and value. */
export function messageBytes(message: OutgoingMessage): number {
  let total = Buffer.byteLength(message.body, 'utf8');
  for (const [name, value] of Object.entries(message.attributes ?? {})) {
    total += Buffer.byteLength(name, 'utf8') + 'String'.length + Buffer.byteLength(value, 'utf8');
  }
  return total;
}

/** Why SQS would refuse this message, or `undefined` when it is acceptable. */
export function checkMessage(
  message: OutgoingMessage,
  maxBytes: number = SQS_LIMITS.messageBytes,
): LimitViolation | undefined {
  if (message.body.length === 0) return { code: 'InvalidParameterValue', message: 'message body is empty' };
  const size = messageBytes(message);
  if (size > maxBytes) {
    return { code: 'MessageTooLong', message: `message is ${size} bytes; the limit is ${maxBytes}` };
  }
  if (FORBIDDEN_CHAR.test(message.body)) {
    return { code: 'InvalidMessageContents', message: 'message body contains characters SQS does not allow' };
  }
  const attributes = Object.entries(message.attributes ?? {});
  if (attributes.length > SQS_LIMITS.attributes) {
    return {
      code: 'InvalidParameterValue',
      message: `message has ${attributes.length} attributes; the limit is ${SQS_LIMITS.attributes}`,
    };
  }
  for (const [name, value] of attributes) {
    if (name.length > SQS_LIMITS.attributeNameLength || !ATTRIBUTE_NAME.test(name)) {
      return { code: 'InvalidParameterValue', message: `message attribute name '${name}' is not valid` };
    }
    if (value.length === 0 || FORBIDDEN_CHAR.test(value)) {
      return {
        code: 'InvalidParameterValue',
        message: `message attribute '${name}' is empty or has characters SQS does not allow`,
      };
    }
  }
  return undefined;
}

/** Replaces characters SQS refuses with U+FFFD, so text from hostile input can travel as an attribute. */
export function sanitizeForSqs(text: string): string {
  return text.replace(FORBIDDEN_CHARS, '\uFFFD');
}

/** The longest prefix of `text` that fits in `maxBytes` of UTF-8 without splitting a character. */
export function truncateUtf8(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text, 'utf8') <= maxBytes) return text;
  let bytes = 0;
  let end = 0;
  for (const char of text) {
    const size = Buffer.byteLength(char, 'utf8');
    if (bytes + size > maxBytes) break;
    bytes += size;
    end += char.length;
  }
  return text.slice(0, end);
}

/** Why SQS would refuse `seconds` as a VisibilityTimeout, or `undefined` when it is acceptable. */
export function checkVisibilityTimeout(seconds: number): LimitViolation | undefined {
  if (Number.isInteger(seconds) && seconds >= 0 && seconds <= SQS_LIMITS.visibilitySeconds) return undefined;
  return {
    code: 'InvalidParameterValue',
    message: `VisibilityTimeout must be a whole number of seconds 0..${SQS_LIMITS.visibilitySeconds}, got ${seconds}`,
  };
}
