import { pyInt } from './pyStrings.js';

/**
 * IPv4/IPv6 text parsing and prefix matching, as netaddr does it for Nova's SimpleCIDRAffinityFilter.
 * Addresses are parsed into caller-owned byte buffers so that a per-host check allocates nothing.
 */

/** 4 or 6; 0 from parseAddress means "not an address". */
export type IpFamily = 4 | 6;

export interface IpNetwork {
  family: IpFamily;
  /** The network's address (4 or 16 bytes used); host bits may be set, as netaddr allows. */
  bytes: Uint8Array;
  prefix: number;
}

/** The number of bits in an address of `family`. */
export function addressBits(family: IpFamily): number {
  return family === 4 ? 32 : 128;
}

/**
 * A prefix length, or a netmask (leading ones) or hostmask (leading zeros) of the same family.
 * A length is returned as written, so callers check it against addressBits.
 */
export function parsePrefix(text: string, family: IpFamily): number | undefined {
  const length = pyInt(text);
  if (length !== undefined) return length;
  const mask = new Uint8Array(16);
  if (parseAddress(text, mask) !== family) return undefined;
  const size = family === 4 ? 4 : 16;
  return leadingRun(mask, size, 0xff) ?? leadingRun(mask, size, 0x00);
}

/** How many leading bits match `lead`'s bit when every bit after them is the opposite; else undefined. */
function leadingRun(bytes: Uint8Array, size: number, lead: 0xff | 0x00): number | undefined {
  let i = 0;
  while (i < size && bytes[i] === lead) i++;
  let bits = i * 8;
  if (i < size) {
    const b = (bytes[i] ^ ~lead) & 0xff; // the run as leading ones
    let n = 0;
    while (n < 8 && b & (0x80 >> n)) n++;
    if ((b << n) & 0xff) return undefined;
    bits += n;
    for (i++; i < size; i++) if (bytes[i] !== (~lead & 0xff)) return undefined;
  }
  return bits;
}

/** True when the first `net.prefix` bits of `address` (as filled by parseAddress) are the network's. */
export function inNetwork(address: Uint8Array, net: IpNetwork): boolean {
  const whole = net.prefix >> 3;
  for (let i = 0; i < whole; i++) if (address[i] !== net.bytes[i]) return false;
  const rest = net.prefix & 7;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return (address[whole] & mask) === (net.bytes[whole] & mask);
}

/** Parses an address as inet_pton would into `out`; returns its family, or 0 when it is malformed. */
export function parseAddress(text: string, out: Uint8Array): 0 | IpFamily {
  if (text.indexOf(':') >= 0) return parseIPv6(text, out) ? 6 : 0;
  return parseIPv4(text, 0, text.length, out, 0) ? 4 : 0;
}

/** Dotted quad in text[start, end) into out[offset..offset+3]; no leading zeros, as inet_pton. */
function parseIPv4(text: string, start: number, end: number, out: Uint8Array, offset: number): boolean {
  let octet = 0;
  let digits = 0;
  let parts = 0;
  for (let i = start; i <= end; i++) {
    const c = i < end ? text.charCodeAt(i) : DOT;
    if (c === DOT) {
      if (digits === 0 || parts === 4) return false;
      out[offset + parts++] = octet;
      octet = 0;
      digits = 0;
    } else if (c >= 48 && c <= 57) {
      if (digits > 0 && octet === 0) return false;
      octet = octet * 10 + (c - 48);
      digits++;
      if (octet > 255) return false;
    } else return false;
  }
  return parts === 4;
}

/** RFC 4291 text form (with '::' and a trailing dotted quad) into out[0..15]; no zone index. */
function parseIPv6(text: string, out: Uint8Array): boolean {
  const n = text.length;
  let groups = 0;
  let gap = -1; // the group index where '::' stands
  let i = 0;
  if (text.charCodeAt(0) === COLON) {
    if (text.charCodeAt(1) !== COLON) return false;
    gap = 0;
    i = 2;
  }
  while (i < n) {
    if (groups === 8) return false;
    const start = i;
    let value = 0;
    while (i < n && hexDigit(text.charCodeAt(i)) >= 0) value = value * 16 + hexDigit(text.charCodeAt(i++));
    if (i < n && text.charCodeAt(i) === DOT) {
      if (groups > 6 || !parseIPv4(text, start, n, out, groups * 2)) return false;
      groups += 2;
      break;
    }
    if (i === start || i - start > 4) return false;
    out[groups * 2] = value >> 8;
    out[groups * 2 + 1] = value & 0xff;
    groups++;
    if (i === n) break;
    if (text.charCodeAt(i++) !== COLON || i === n) return false;
    if (text.charCodeAt(i) === COLON) {
      if (gap >= 0) return false;
      gap = groups;
      i++;
    }
  }
  if (gap < 0) return groups === 8;
  // '::' stands for at least one zero group: move the groups after it to the end.
  if (groups === 8) return false;
  const tail = groups - gap;
  for (let k = tail - 1; k >= 0; k--) {
    out[(8 - tail + k) * 2] = out[(gap + k) * 2];
    out[(8 - tail + k) * 2 + 1] = out[(gap + k) * 2 + 1];
  }
  out.fill(0, gap * 2, (8 - tail) * 2);
  return true;
}

const DOT = 46;
const COLON = 58;

function hexDigit(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}
