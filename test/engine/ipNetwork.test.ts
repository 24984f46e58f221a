import { describe, expect, it } from 'vitest';
import {
  addressBits,
  type IpNetwork,
  inNetwork,
  parseAddress,
  parsePrefix,
} from '../../lib/engine/ipNetwork.js';

function bytesOf(text: string): number[] {
  const out = new Uint8Array(16);
  const family = parseAddress(text, out);
  return [...out.subarray(0, family === 4 ? 4 : 16)];
}

function network(text: string, prefix: number): IpNetwork {
  const bytes = new Uint8Array(16);
  const family = parseAddress(text, bytes);
  if (family === 0) throw new Error(`bad test network ${text}`);
  return { family, bytes, prefix };
}

function contains(net: IpNetwork, address: string): boolean {
  const bytes = new Uint8Array(16);
  return parseAddress(address, bytes) === net.family && inNetwork(bytes, net);
}

describe('parseAddress', () => {
  it.each([
    ['a dotted quad', '192.168.1.20', 4],
    ['a full IPv6 address', '2001:db8:0:0:0:0:0:1', 6],
    ['an IPv6 address with ::', '2001:db8::1', 6],
    ['the IPv6 loopback', '::1', 6],
    ['an IPv6 address ending in a dotted quad', '::ffff:10.0.0.1', 6],
  ])('reads %s', (_case, text, family) => {
    // Act
    const result = parseAddress(text, new Uint8Array(16));

    // Assess
    expect(result).toBe(family);
  });

  it.each([
    ['an empty string', ''],
    ['three octets', '10.0.0'],
    ['five octets', '10.0.0.0.1'],
    ['an octet above 255', '10.0.0.256'],
    ['an octet with a leading zero', '10.0.0.01'],
    ['a hostname', 'compute-1'],
    ['two ::', '1::2::3'],
    ['a group of five hex digits', '12345::1'],
    ['nine groups', '1:2:3:4:5:6:7:8:9'],
    ['a zone index', 'fe80::1%eth0'],
    ['a trailing single colon', '1:2:3:4:5:6:7:'],
  ])('rejects %s', (_case, text) => {
    // Act
    const result = parseAddress(text, new Uint8Array(16));

    // Assess
    expect(result).toBe(0);
  });

  it.each([
    ['an IPv4 address into 4 bytes', '10.1.2.3', [10, 1, 2, 3]],
    [
      'IPv6 groups into byte pairs',
      '2001:db8::ff00:42',
      [0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0, 0, 0x42],
    ],
    [
      'an embedded dotted quad into the last 4 bytes',
      '::ffff:1.2.3.4',
      [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 1, 2, 3, 4],
    ],
  ])('writes %s', (_case, text, expected) => {
    // Act
    const bytes = bytesOf(text);

    // Assess
    expect(bytes).toEqual(expected);
  });
});

describe('parsePrefix', () => {
  it.each([
    ['a prefix length', '24', 4, 24],
    ['a length out of range as written (the caller checks it)', '33', 4, 33],
    ['an IPv4 netmask', '255.255.255.0', 4, 24],
    ['a netmask ending mid-byte', '255.255.255.128', 4, 25],
    ['an IPv4 hostmask', '0.0.0.255', 4, 24],
    ['the all-ones netmask', '255.255.255.255', 4, 32],
    ['an IPv6 netmask', 'ffff:ffff::', 6, 32],
  ] as const)('reads %s', (_case, text, family, expected) => {
    // Act
    const prefix = parsePrefix(text, family);

    // Assess
    expect(prefix).toBe(expected);
  });

  it.each([
    ['a mask whose ones are not contiguous', '255.0.255.0', 4],
    ['an IPv4 netmask for an IPv6 network', '255.255.255.0', 6],
    ['text that is neither a length nor a mask', 'abc', 4],
  ] as const)('rejects %s', (_case, text, family) => {
    // Act
    const prefix = parsePrefix(text, family);

    // Assess
    expect(prefix).toBeUndefined();
  });
});

describe('inNetwork', () => {
  it.each([
    ['an address inside a /8', network('10.0.0.0', 8), '10.200.3.4', true],
    ['an address outside a /8', network('10.0.0.0', 8), '11.0.0.1', false],
    ['the last address of a /25', network('192.168.1.0', 25), '192.168.1.127', true],
    ['the first address past a /25', network('192.168.1.0', 25), '192.168.1.128', false],
    ['any address of the family in a /0', network('10.0.0.0', 0), '203.0.113.9', true],
    ['only the address itself in a /32', network('10.0.0.1', 32), '10.0.0.2', false],
    ['a network written with host bits set', network('10.1.2.3', 8), '10.9.9.9', true],
    ['an address inside an IPv6 /64', network('2001:db8:1:2::', 64), '2001:db8:1:2::abcd', true],
    ['an address outside an IPv6 /64', network('2001:db8:1:2::', 64), '2001:db8:1:3::1', false],
    ['an IPv6 address against an IPv4 network', network('10.0.0.0', 8), '::ffff:10.0.0.1', false],
  ])('places %s', (_case, net, address, expected) => {
    // Act
    const result = contains(net, address);

    // Assess
    expect(result).toBe(expected);
  });
});

describe('addressBits', () => {
  it.each([
    [4, 32],
    [6, 128],
  ] as const)('gives IPv%i addresses %i bits', (family, bits) => {
    expect(addressBits(family)).toBe(bits);
  });
});
