/**
 * Memory for explained decisions, reused. A recording keeps typed arrays as long as its decision is
 * read (a removal per host per stage, the survivors' weights); fresh ones per decision cost more
 * than the recording's own work (new pages, scavenges, the external-memory accounting). A decision
 * borrows its arrays through a BufferLoan and gives them all back when released; one never
 * released keeps them until it is garbage collected, and the pool simply allocates new ones.
 */

/** Idle memory a pool keeps at most: a few 100k-host decisions' worth. */
const MAX_IDLE_BYTES = 16 * 1024 * 1024;
/** Idle buffers a pool keeps at most (each borrow scans them). */
const MAX_IDLE_BUFFERS = 32;
/** The smallest buffer allocated: tiny decisions share a size, so any idle one fits them. */
const MIN_BYTES = 1024;

type PooledArray = Uint8Array | Uint16Array | Int32Array | Float64Array;

interface PooledArrayType<T extends PooledArray> {
  new (buffer: ArrayBuffer, byteOffset: number, length: number): T;
  readonly BYTES_PER_ELEMENT: number;
}

/** ArrayBuffers not lent out. One per scheduler: decisions of different schedulers share nothing. */
export class BufferPool {
  private readonly idle: ArrayBuffer[] = [];
  private idleBytes = 0;

  /** The smallest idle buffer of at least `bytes` (old contents and all), or a new one. */
  take(bytes: number): ArrayBuffer {
    let best = -1;
    for (let i = 0; i < this.idle.length; i++) {
      const size = this.idle[i].byteLength;
      if (size >= bytes && (best < 0 || size < this.idle[best].byteLength)) best = i;
    }
    if (best < 0) return new ArrayBuffer(roundedSize(bytes));
    const buffer = this.idle[best];
    this.idle[best] = this.idle[this.idle.length - 1];
    this.idle.pop();
    this.idleBytes -= buffer.byteLength;
    return buffer;
  }

  /** Back to the idle list, unless that would hold more than the caps (then it is left to the GC). */
  giveBack(buffer: ArrayBuffer): void {
    if (this.idle.length >= MAX_IDLE_BUFFERS || this.idleBytes + buffer.byteLength > MAX_IDLE_BYTES) return;
    this.idle.push(buffer);
    this.idleBytes += buffer.byteLength;
  }

  /** Bytes held idle (for tests: the caps hold). */
  get idleSize(): number {
    return this.idleBytes;
  }
}

/** Sizes in powers of two, so a decision a little larger than the last still finds its buffers. */
function roundedSize(bytes: number): number {
  let size = MIN_BYTES;
  while (size < bytes) size *= 2;
  return size;
}

/** The arrays one decision borrowed, all given back at once. */
export class BufferLoan {
  private readonly buffers: ArrayBuffer[] = [];

  constructor(private readonly pool: BufferPool) {}

  /** `length` zeros, in a borrowed buffer. */
  zeroed<T extends PooledArray>(type: PooledArrayType<T>, length: number): T {
    const array = this.view(type, length);
    array.fill(0);
    return array;
  }

  /** A copy of source[0..length), in a borrowed buffer. */
  copyOf<T extends PooledArray>(type: PooledArrayType<T>, source: T, length: number): T {
    const array = this.view(type, length);
    array.set(source.subarray(0, length));
    return array;
  }

  /** Gives every buffer back; the arrays handed out must not be read after this. */
  returnAll(): void {
    for (const buffer of this.buffers) this.pool.giveBack(buffer);
    this.buffers.length = 0;
  }

  /** An exact-length view (code reads `.length`) over a buffer that may be larger. */
  private view<T extends PooledArray>(type: PooledArrayType<T>, length: number): T {
    const buffer = this.pool.take(length * type.BYTES_PER_ELEMENT);
    this.buffers.push(buffer);
    return new type(buffer, 0, length);
  }
}
