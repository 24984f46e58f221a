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
  ) {
    this.written = new Uint8Array(size);
    this.unwritten = size;
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
