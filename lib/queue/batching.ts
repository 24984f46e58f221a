import { messageBytes, SQS_LIMITS } from './limits.js';
import type { OutgoingMessage } from './port.js';

/** A message with its position in the caller's array, so results can be mapped back. */
export interface IndexedMessage {
  index: number;
  message: OutgoingMessage;
}

/**
 * Groups messages, in order, into SendMessageBatch calls: at most `maxEntries` a call and at most
 * `maxBytes` summed over a call. A message larger than `maxBytes` on its own is the caller's to refuse
 * before calling this; here it would get a call to itself.
 */
export function chunkForBatch(
  messages: readonly IndexedMessage[],
  maxEntries: number = SQS_LIMITS.batchEntries,
  maxBytes: number = SQS_LIMITS.messageBytes,
): IndexedMessage[][] {
  const chunks: IndexedMessage[][] = [];
  let current: IndexedMessage[] = [];
  let currentBytes = 0;
  for (const entry of messages) {
    const size = messageBytes(entry.message);
    if (current.length > 0 && (current.length === maxEntries || currentBytes + size > maxBytes)) {
      chunks.push(current);
      current = [];
      currentBytes = 0;
    }
    current.push(entry);
    currentBytes += size;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}
