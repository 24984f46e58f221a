import type { NumaCell } from '../../model/hostState.js';
import type { InstanceNumaCell } from '../../model/requestSpec.js';
import type { MissReport } from './numaCell.js';

/** Nova's symbolic page sizes (`hw:mem_page_size=small|large|any`). */
const SMALL = -1;
const LARGE = -2;
const ANY = -3;
/** Returned by fitMemory when the guest cell's memory does not fit. */
export const NO_FIT = -1;

/**
 * The memory part of Nova's `_numa_fit_instance_cell`: the page size (KiB) the guest memory goes
 * in, 0 for a host cell without page pools, or NO_FIT.
 */
export function fitMemory(
  host: NumaCell,
  guest: InstanceNumaCell,
  pinned: boolean,
  report?: MissReport,
): number {
  if (guest.pagesize) return fitRequestedPages(host, guest, report);
  if (host.mempages.length > 0) {
    // Without a requested page size Nova counts every small page, used or not (use_free=False);
    // a pinned guest's free memory is checked separately (fitCell).
    const size = smallestPagesize(host);
    const pool = host.mempages.find((p) => p.size_kb === size)!;
    const pages = pool.total;
    if (pageFit(guest.memory, size, pages)) return size;
    const what = 'in total';
    report?.(
      `guest cell ${guest.id} needs ${guest.memory} MiB`,
      `host cell ${host.id} has ${kibToMib(pages * size)} MiB ${what} in ${size} KiB pages`,
    );
    return NO_FIT;
  }
  const have = pinned ? host.memory - host.memory_usage : host.memory;
  if (guest.memory <= have) return 0;
  report?.(
    `guest cell ${guest.id} needs ${guest.memory} MiB`,
    `host cell ${host.id} has ${have} MiB ${pinned ? 'free' : 'in total'}`,
  );
  return NO_FIT;
}

/** Nova's `_numa_cell_supports_pagesize_request`: the largest candidate size with enough free pages. */
function fitRequestedPages(host: NumaCell, guest: InstanceNumaCell, report?: MissReport): number {
  const requested = guest.pagesize!;
  const sizes = host.mempages.map((p) => p.size_kb).sort((a, b) => b - a);
  let candidates: number[];
  if (requested === SMALL) candidates = sizes.slice(-1);
  else if (requested === LARGE) candidates = sizes.slice(0, -1);
  else if (requested === ANY) candidates = sizes;
  else candidates = [requested];
  for (const size of candidates) {
    const pool = host.mempages.find((p) => p.size_kb === size);
    if (pool && pageFit(guest.memory, size, freePages(pool))) return size;
  }
  if (report) {
    const label =
      requested > 0 ? `${requested} KiB` : { [SMALL]: 'small', [LARGE]: 'large', [ANY]: 'any' }[requested];
    const pools = candidates
      .map((size) => host.mempages.find((p) => p.size_kb === size))
      .filter((p) => p !== undefined)
      .map((p) => `${kibToMib(freePages(p) * p.size_kb)} MiB free in ${p.size_kb} KiB pages`);
    report(
      `guest cell ${guest.id} needs ${guest.memory} MiB in ${label} pages`,
      `host cell ${host.id} has ${pools.length > 0 ? pools.join(', ') : 'no such pages'}`,
    );
  }
  return NO_FIT;
}

/** Nova's `can_fit_pagesize`: enough pages, and the memory is a whole number of pages. */
function pageFit(memoryMib: number, sizeKib: number, pages: number): boolean {
  const kib = memoryMib * 1024;
  return kib <= pages * sizeKib && kib % sizeKib === 0;
}

function freePages(pool: NumaCell['mempages'][number]): number {
  return pool.total - pool.used - (pool.reserved ?? 0);
}

export function smallestPagesize(host: NumaCell): number {
  let min = Number.POSITIVE_INFINITY;
  for (const p of host.mempages) if (p.size_kb < min) min = p.size_kb;
  return min;
}

function kibToMib(kib: number): number {
  return Math.floor(kib / 1024);
}
