/** Number formats shared by the terminal and HTML reports, so both read the same. */

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const oneDecimal = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** `12,345` */
export const formatCount = (n: number): string => integer.format(n);

/** `12.5%` */
export const formatPercent = (n: number): string => `${oneDecimal.format(n)}%`;

/** `1,234.5 GB` */
export const formatGb = (n: number): string => `${oneDecimal.format(n)} GB`;

/** `850 Mbit/s`, or `2.4 Gbit/s` from 1,000 Mbit/s up. */
export function formatMbps(mbps: number): string {
  return mbps >= 1000 ? `${oneDecimal.format(mbps / 1000)} Gbit/s` : `${integer.format(mbps)} Mbit/s`;
}

/** `2.4 GiB` from bytes, for single migrations. */
export function formatBytes(bytes: number): string {
  const gib = bytes / 2 ** 30;
  return gib >= 1 ? `${oneDecimal.format(gib)} GiB` : `${integer.format(bytes / 2 ** 20)} MiB`;
}

/** `45 min`, `24 h`, `3 d 2 h 30 min`: hours up to two days, as operators count a simulated day. */
export function formatMinutes(minutes: number): string {
  const total = Math.round(minutes);
  if (total === 0) return '0 min';
  const parts: string[] = [];
  const days = total > 2880 ? Math.floor(total / 1440) : 0;
  const hours = Math.floor((total - days * 1440) / 60);
  const mins = total % 60;
  if (days > 0) parts.push(`${days} d`);
  if (hours > 0) parts.push(`${hours} h`);
  if (mins > 0) parts.push(`${mins} min`);
  return parts.join(' ');
}

/** `1 m 23 s` or `4.2 s` of wall-clock time. */
export function formatElapsed(ms: number): string {
  const s = ms / 1000;
  if (s < 60) return `${oneDecimal.format(s)} s`;
  const whole = Math.round(s);
  return `${Math.floor(whole / 60)} m ${whole % 60} s`;
}

/** `1 VM`, `2 VMs` with the count formatted. */
export function plural(n: number, word: string, many = `${word}s`): string {
  return `${formatCount(n)} ${n === 1 ? word : many}`;
}
