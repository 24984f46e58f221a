import { LRUCache } from 'lru-cache';

type Metadata = Record<string, string>;

/**
 * Instance metadata by request id, least recently used first out. Retries, reschedules and the
 * instances of one multi-create share a request id, so they share one lookup. It holds the pending
 * promise, so concurrent prepares of one request also share it; a failed lookup is dropped, so the
 * next attempt asks again instead of repeating the failure.
 */
export class RequestMetadataCache {
  private readonly entries: LRUCache<string, Promise<Metadata>>;

  constructor(readonly size: number) {
    this.entries = new LRUCache({ max: size });
  }

  /** The cached metadata of `requestId`, or what `load` returns (then cached). */
  lookup(requestId: string, load: () => Promise<Metadata>): Promise<Metadata> {
    const cached = this.entries.get(requestId);
    if (cached) return cached;
    // async wrapper: a source that throws synchronously still yields a (rejected) promise.
    const pending = (async () => load())();
    this.entries.set(requestId, pending);
    pending.catch(() => {
      // Only drop our own entry: a newer lookup may have replaced it meanwhile.
      if (this.entries.peek(requestId) === pending) this.entries.delete(requestId);
    });
    return pending;
  }

  has(requestId: string): boolean {
    return this.entries.has(requestId);
  }
}
