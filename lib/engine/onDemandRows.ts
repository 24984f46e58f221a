/**
 * Which hosts of a per-host table (fit limits, weigher fact rows) have their entry written, for
 * tables written on demand: a fleet asked once, as by one CLI run, pays only for the hosts that
 * decision reads; one asked again is written for every host, once, and is then read with no check
 * per host.
 */
export class OnDemandRows {
  /** 1 for each host whose entry is written. */
  private readonly written: Uint8Array;
  private unwritten: number;

  constructor(
    size: number,
    private readonly write: (i: number) => void,
    from: OnDemandRows | null = null,
  ) {
    this.written = from === null ? new Uint8Array(size) : from.written.slice();
    this.unwritten = from === null ? size : from.unwritten;
  }

  /**
   * The tracker of a copy of this table whose hosts at `stale` positions were replaced: what is
   * written here counts as written there, except those positions, which `write` writes again when
   * asked for. This tracker is not changed (its table may still be read).
   */
  copyFor(write: (i: number) => void, stale: readonly number[]): OnDemandRows {
    const copy = new OnDemandRows(this.written.length, write, this);
    for (const i of stale) {
      if (copy.written[i] === 0) continue;
      copy.written[i] = 0;
      copy.unwritten++;
    }
    return copy;
  }

  /** Every host's entry is written. */
  get complete(): boolean {
    return this.unwritten === 0;
  }

  /** Writes host `i`'s entry unless it is written. */
  one(i: number): void {
    if (this.written[i] === 1) return;
    this.write(i);
    this.written[i] = 1;
    this.unwritten--;
  }

  /** Writes the entries of the hosts at positions[0..count) not written yet. */
  some(positions: Int32Array, count: number): void {
    for (let j = 0; j < count; j++) this.one(positions[j]);
  }

  /** Writes every entry not written yet. */
  all(): void {
    if (this.unwritten === 0) return;
    for (let i = 0; i < this.written.length; i++) this.one(i);
  }
}
