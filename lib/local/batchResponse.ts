/** What the event source mapping makes of a handler's reply: which message ids go back to the queue. */
export interface BatchVerdict {
  failedIds: Set<string>;
  /** Set when the reply failed the whole batch, with the reason. */
  wholeBatch?: string;
}

/**
 * Lambda's rules for a ReportBatchItemFailures reply. Success of every record: no reply, `{}`, or a
 * null or empty `batchItemFailures`. Failure of the whole batch: a reply that is not an object, a
 * `batchItemFailures` that is not a list, or any entry whose `itemIdentifier` is missing, empty or not a
 * message of this batch. Otherwise exactly the listed records fail.
 */
export function interpretBatchResponse(batchIds: readonly string[], reply: unknown): BatchVerdict {
  const all = (reason: string): BatchVerdict => ({ failedIds: new Set(batchIds), wholeBatch: reason });
  if (reply === undefined || reply === null) return { failedIds: new Set() };
  if (typeof reply !== 'object' || Array.isArray(reply)) return all('the reply is not an object');
  const failures = (reply as { batchItemFailures?: unknown }).batchItemFailures;
  if (failures === undefined || failures === null) return { failedIds: new Set() };
  if (!Array.isArray(failures)) return all('batchItemFailures is not a list');
  const known = new Set(batchIds);
  const failedIds = new Set<string>();
  for (const failure of failures) {
    const id = (failure as { itemIdentifier?: unknown } | null)?.itemIdentifier;
    if (typeof id !== 'string' || !known.has(id)) {
      return all(`batchItemFailures names ${JSON.stringify(id) ?? 'nothing'}, not a message of this batch`);
    }
    failedIds.add(id);
  }
  return { failedIds };
}
