/**
 * The fleet as the schedule stage sees it: host states held in memory (module scope in a Lambda, so
 * they survive between invocations) and refreshed from the store's change feed, not re-read per
 * request. Correctness never depends on freshness: claims are conditional writes, so a stale
 * snapshot costs at most a lost claim race and a try on the next alternate.
 */
import { Fleet } from '../engine/fleet.js';
import type { HostState } from '../model/hostState.js';
import { encodeCursor } from '../store/cursor.js';
import type { FleetStore } from '../store/fleetStore.js';
import { nodeKey as key, type StoredHost, withSeen } from '../store/hostItems.js';
import type { Sightings } from '../store/hostSightings.js';

/** What the snapshot reads: the change feed, the full listing, and the store's clock for cursors. */
export type SnapshotSource = Pick<FleetStore, 'hostsChangedSince' | 'listHosts' | 'ctx'>;

export interface SnapshotOptions {
  /** A full listHosts at least this often: the backstop for anything the change feed missed. Default 5 min. */
  fullRefreshMs?: number;
  /** `refresh()` reads nothing when the last read is younger than this. Default 0: read every time. */
  maxAgeMs?: number;
  /**
   * Once loaded, `refresh()` never waits for the store: a due read starts in the background and
   * the request goes on with what is held (stale-while-revalidate). For a long-running process
   * (`placid serve`); a Lambda may be frozen mid-read, so it keeps the default, false.
   */
  revalidateInBackground?: boolean;
  /**
   * Incremental reads in between read back only this far behind the last one, instead of the
   * store's changeOverlapMs (10 s); a read with the full overlap, from the last such read's cursor,
   * still runs once per changeOverlapMs, so a write stamped late is seen at most that much later.
   * Every read otherwise lists again every host written in the last 10 s: after a burst of writes
   * (an ingest cold start rewriting every host) that is thousands of hosts each second, on the
   * event loop that answers requests. Unset: every read uses the full overlap.
   */
  quickOverlapMs?: number;
}

export interface RefreshStats {
  /** `fresh`: the last read was recent enough (maxAgeMs), nothing was read. */
  kind: 'full' | 'incremental' | 'fresh';
  /** Items the store returned (an incremental read repeats hosts inside its overlap window). */
  read: number;
  /** Hosts new to the snapshot or with a higher version than held. */
  changed: number;
  removed: number;
  /** True when a new Fleet was built (anything changed), with its own index. */
  rebuilt: boolean;
  hosts: number;
  readMs: number;
  rebuildMs: number;
}

export class FleetSnapshot {
  private readonly entries = new Map<string, StoredHost>();
  /** Position of each host in the current Fleet's array (sorted by key, so every build is in the same order). */
  private positions = new Map<string, number>();
  private current: Fleet = Fleet.from([]);
  private cursor: string | undefined;
  /** The cursor of the last read with the full overlap (a full listing or a long incremental read). */
  private longCursor: string | undefined;
  private lastLongReadAt = 0;
  private loaded = false;
  private lastFullAt = 0;
  private lastReadAt = 0;
  private inflight: Promise<RefreshStats> | undefined;
  private readonly fullRefreshMs: number;
  private readonly maxAgeMs: number;
  private readonly background: boolean;
  private readonly quickOverlapMs: number | undefined;
  private failure: unknown;

  constructor(
    private readonly source: SnapshotSource,
    options: SnapshotOptions = {},
  ) {
    this.fullRefreshMs = options.fullRefreshMs ?? 5 * 60_000;
    this.maxAgeMs = options.maxAgeMs ?? 0;
    this.background = options.revalidateInBackground ?? false;
    this.quickOverlapMs = options.quickOverlapMs;
  }

  /** Resolves when no read is in flight (before the store closes under a background read). */
  async settled(): Promise<void> {
    await this.inflight?.catch(() => undefined);
  }

  /** The last background read's error, until a read succeeds (claims stay safe meanwhile). */
  get backgroundFailure(): unknown {
    return this.failure;
  }

  /** The engine's view of the last read; the same object until something changes. */
  get fleet(): Fleet {
    return this.current;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The stored host as last read (with its version and pending claims). */
  get(host: string, nodename = host): StoredHost | undefined {
    return this.entries.get(key(host, nodename));
  }

  /**
   * Brings the snapshot up to date: a full listing on first use and every `fullRefreshMs`, otherwise
   * only the hosts changed since the last read. Concurrent callers share one read.
   */
  refresh(): Promise<RefreshStats> {
    if (this.background && this.loaded) return Promise.resolve(this.revalidate());
    return this.startRead();
  }

  private startRead(): Promise<RefreshStats> {
    this.inflight ??= this.read().finally(() => {
      this.inflight = undefined;
    });
    return this.inflight;
  }

  /** Starts a due read without waiting for it; answers with what is held now. */
  private revalidate(): RefreshStats {
    const due = this.source.ctx.clock.now() - this.lastReadAt >= this.maxAgeMs;
    if (due && !this.inflight) {
      this.startRead().then(
        () => {
          this.failure = undefined;
        },
        (error: unknown) => {
          this.failure = error;
        },
      );
    }
    return this.freshStats();
  }

  private freshStats(): RefreshStats {
    return {
      kind: 'fresh',
      read: 0,
      changed: 0,
      removed: 0,
      rebuilt: false,
      hosts: this.entries.size,
      readMs: 0,
      rebuildMs: 0,
    };
  }

  private async read(): Promise<RefreshStats> {
    const now = this.source.ctx.clock.now();
    if (this.loaded && now - this.lastReadAt < this.maxAgeMs) return this.freshStats();
    const full = !this.loaded || now - this.lastFullAt >= this.fullRefreshMs;
    const started = performance.now();
    const sightings: Sightings = new Map();
    const incoming = full ? await this.listAll(now) : await this.readChanges(now, sightings);
    const readMs = performance.now() - started;
    this.lastReadAt = now;
    this.loaded = true;
    const changed = this.merge(incoming, sightings);
    const removed = full ? this.removeMissing(incoming, now) : 0;
    const rebuilt = changed.length > 0 || removed > 0;
    const rebuildStarted = performance.now();
    if (rebuilt) this.rebuild(changed, removed > 0);
    return {
      kind: full ? 'full' : 'incremental',
      read: incoming.length,
      changed: changed.length,
      removed,
      rebuilt,
      hosts: this.entries.size,
      readMs,
      rebuildMs: rebuilt ? performance.now() - rebuildStarted : 0,
    };
  }

  private async listAll(now: number): Promise<StoredHost[]> {
    // The cursor is taken before the scan, so writes made during it are read again next time.
    const cursor = encodeCursor(now);
    const hosts = await this.source.listHosts();
    this.cursor = cursor;
    this.longCursor = cursor;
    this.lastFullAt = now;
    this.lastLongReadAt = now;
    return hosts;
  }

  /** The hosts changed since the last read; the sightings read with them go into `sightings`. */
  private async readChanges(now: number, sightings: Sightings): Promise<StoredHost[]> {
    const quick =
      this.quickOverlapMs !== undefined && now - this.lastLongReadAt < this.source.ctx.changeOverlapMs;
    // A long read starts from the last long read's cursor: whatever the quick reads since could have missed.
    const changes = quick
      ? await this.source.hostsChangedSince(this.cursor, this.quickOverlapMs)
      : await this.source.hostsChangedSince(this.longCursor);
    this.cursor = changes.cursor;
    if (!quick) {
      this.longCursor = changes.cursor;
      this.lastLongReadAt = now;
    }
    for (const [k, seen] of changes.sightings) sightings.set(k, seen);
    return changes.hosts;
  }

  /**
   * Keeps the higher version of each host (an incremental read repeats hosts in its overlap window),
   * then moves held hosts' heartbeats on to `sightings`: a host whose unchanged state was not
   * rewritten is in the change feed only through them. A newer item keeps the sighting held before
   * (its own report may be older: a claim rewrote it).
   */
  private merge(incoming: readonly StoredHost[], sightings: Sightings): string[] {
    const changed = new Set<string>();
    for (const stored of incoming) {
      const k = key(stored.state.host, stored.state.nodename);
      const held = this.entries.get(k);
      // The same item again may come with a newer sighting (a full listing applies them).
      const next =
        held && held.version >= stored.version
          ? withSeen(held, stored.seen_at)
          : withSeen(stored, held?.seen_at);
      if (next === held) continue;
      this.entries.set(k, next);
      changed.add(k);
    }
    for (const [k, seen] of sightings) {
      const held = this.entries.get(k);
      if (!held) continue;
      const moved = withSeen(held, seen);
      if (moved === held) continue;
      this.entries.set(k, moved);
      changed.add(k);
    }
    return [...changed];
  }

  /**
   * Drops hosts a full listing no longer has. Only ones last written well before the scan began:
   * a host written just before may be missing from an eventually consistent scan.
   */
  private removeMissing(listed: readonly StoredHost[], scanStart: number): number {
    const present = new Set(listed.map((s) => key(s.state.host, s.state.nodename)));
    const settled = scanStart - this.source.ctx.changeOverlapMs;
    let removed = 0;
    for (const [k, held] of this.entries) {
      if (present.has(k) || held.updated_at >= settled) continue;
      this.entries.delete(k);
      removed++;
    }
    return removed;
  }

  /**
   * A new Fleet, which indexes its hosts as it is built. Unchanged hosts are passed as the very
   * objects of the current Fleet, which the new one takes as they are, so only changed hosts are
   * copied. Hosts keep their positions unless some were added or the caller asks for a new order
   * (sorted by key, so every build is in the same order).
   */
  private rebuild(changed: readonly string[], reorder: boolean): void {
    const fresh = new Set(changed);
    const previous = this.current.hosts;
    const reuse = (k: string): HostState => {
      const at = this.positions.get(k);
      return at === undefined || fresh.has(k) ? this.entries.get(k)!.state : previous[at];
    };
    if (reorder || changed.some((k) => !this.positions.has(k))) {
      const keys = [...this.entries.keys()].sort();
      this.current = Fleet.from(keys.map(reuse), this.current);
      this.positions = new Map(keys.map((k, i) => [k, i]));
    } else {
      const hosts = previous.slice();
      for (const k of changed) hosts[this.positions.get(k)!] = this.entries.get(k)!.state;
      this.current = Fleet.from(hosts, this.current);
    }
    // The stored entries keep the Fleet's interned copies, so the parsed originals can be collected:
    // one copy of each host lives on, and a long-running server's heap (and each full GC) is smaller.
    for (const k of changed) this.entries.get(k)!.state = this.current.hosts[this.positions.get(k)!];
  }
}
