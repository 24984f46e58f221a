/** Number formats shared by the planner's reasons, so every explanation reads the same way. */

const GIB = 2 ** 30;

/** `12.5%` */
export const pct = (v: number): string => `${v.toFixed(1)}%`;
/** `3.2` (vCPUs) */
export const vcpus = (v: number): string => v.toFixed(1);
/** `8.0 GiB` from bytes */
export const gibibytes = (bytes: number): string => `${(bytes / GIB).toFixed(1)} GiB`;
/** `28 s` */
export const seconds = (v: number): string => `${Math.round(v)} s`;
/** `12:30:00Z`: the time of day of an ISO instant, enough inside one plan. */
export const clock = (iso: string): string => `${iso.slice(11, 19)}Z`;
/** One decimal, as a number (for JSON output). */
export const round1 = (v: number): number => Math.round(v * 10) / 10;

/**
 * The same text, stored flat. A reason built from pieces is a tree of string fragments in V8
 * (about 700 bytes for a VM's reason against 180 flat); a detection keeps one per VM, 200,000 at
 * 10,000 hosts. Reading a character makes V8 copy the text into one piece (as the flatstr package
 * does with `s | 0`), and the fragments become garbage.
 */
export function flat(text: string): string {
  text.charCodeAt(0);
  return text;
}
