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
