import { BlockList } from 'node:net';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PASS_ALL } from '../../../lib/engine/filter.js';
import { SimpleCIDRAffinityFilter } from '../../../lib/engine/filters/SimpleCIDRAffinityFilter.js';
import { RequestError } from '../../../lib/model/errors.js';
import { makeSpec } from '../../helpers/factories.js';
import { explanation, flags, host, passes, prepared, survivors } from './filterHarness.js';

const near = (ip: string | string[], cidr?: string | string[]) =>
  makeSpec({
    scheduler_hints: cidr === undefined ? { build_near_host_ip: ip } : { build_near_host_ip: ip, cidr },
  });
const at = (host_ip: string | null) => host({ host_ip });

/** An address with one bit of `bits` flipped (bit 0 is the most significant), in full text form. */
function flipped(bits: number[], bit: number, family: 4 | 6): string {
  const words = bits.slice();
  const size = family === 4 ? 8 : 16;
  words[Math.floor(bit / size)] ^= 1 << (size - 1 - (bit % size));
  return family === 4 ? words.join('.') : words.map((w) => w.toString(16)).join(':');
}

/** Node's BlockList as the reference for prefix membership. */
function inSubnet(network: string, prefix: number, address: string, family: 4 | 6): boolean {
  const list = new BlockList();
  list.addSubnet(network, prefix, family === 4 ? 'ipv4' : 'ipv6');
  return list.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

describe('SimpleCIDRAffinityFilter', () => {
  it('runs once per request and not on rebuild', () => {
    expect(flags(SimpleCIDRAffinityFilter)).toEqual({ once: true, rebuild: false });
  });

  it.each([
    ['no hint is given', makeSpec()],
    ['only cidr is given', makeSpec({ scheduler_hints: { cidr: '/8' } })],
    ['build_near_host_ip is empty', near('')],
  ])('passes every host when %s', (_case, spec) => {
    expect(prepared(SimpleCIDRAffinityFilter, { spec })).toBe(PASS_ALL);
  });

  it.each([
    ['the default /24 holds a neighbour', '10.1.2.3', undefined, '10.1.2.200', true],
    ['the default /24 excludes the next subnet', '10.1.2.3', undefined, '10.1.3.3', false],
    ['a wider prefix takes in more', '10.1.2.3', '/16', '10.1.99.1', true],
    ['a prefix off a byte boundary splits it', '10.1.2.3', '/20', '10.1.15.255', true],
    ['a prefix off a byte boundary excludes beyond it', '10.1.2.3', '/20', '10.1.16.0', false],
    ['/32 holds only the address itself', '10.1.2.3', '/32', '10.1.2.3', true],
    ['/32 excludes any other address', '10.1.2.3', '/32', '10.1.2.4', false],
    ['/0 holds every IPv4 address', '10.1.2.3', '/0', '192.168.0.1', true],
    ['a netmask works as a prefix', '10.1.2.3', '/255.255.0.0', '10.1.200.1', true],
    ['a netmask excludes like its prefix', '10.1.2.3', '/255.255.0.0', '10.2.0.1', false],
    ['a hostmask works as a prefix', '10.1.2.3', '/0.0.0.255', '10.1.2.254', true],
    ['an empty cidr means the single address', '10.1.2.3', '', '10.1.2.3', true],
    ['an empty cidr excludes the neighbours', '10.1.2.3', '', '10.1.2.4', false],
    ['a cidr without "/" is pasted onto the address, as Nova does', '10.1.2.1', '4', '10.1.2.14', true],
    ['IPv6 /64 holds the same subnet', '2001:db8:1:2::10', '/64', '2001:db8:1:2:ffff::1', true],
    ['IPv6 /64 excludes the next subnet', '2001:db8:1:2::10', '/64', '2001:db8:1:3::1', false],
    ['IPv6 /127 splits the last byte', '2001:db8::4', '/127', '2001:db8::5', true],
    ['IPv6 /127 excludes past the pair', '2001:db8::4', '/127', '2001:db8::6', false],
    ['IPv6 compares expanded forms', '2001:db8:0:0:0:0:0:5', '/128', '2001:DB8::5', true],
    ['IPv6 reads an embedded dotted quad', '::ffff:10.1.2.3', '/120', '::ffff:10.1.2.77', true],
    ['IPv6 defaults to /24 as well', 'fe80::1', undefined, 'fe80:ab::9', true],
    ['an IPv4 host is not in an IPv6 network', '::', '/0', '10.1.2.3', false],
    ['an IPv4-mapped IPv6 host is not in an IPv4 network', '10.1.2.3', '/8', '::ffff:10.1.2.3', false],
  ])('%s', (_case, ip, cidr, hostIp, expected) => {
    expect(passes(SimpleCIDRAffinityFilter, at(hostIp), { spec: near(ip, cidr) })).toBe(expected);
  });

  it.each([
    [4, fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 4, maxLength: 4 }), 32],
    [6, fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 8, maxLength: 8 }), 128],
  ] as const)('matches a reference for a host one bit away from an IPv%i network', (family, words, width) => {
    const hostBit = fc.integer({ min: 0, max: width - 1 });
    const prefix = fc.integer({ min: 0, max: width });
    fc.assert(
      fc.property(words, hostBit, prefix, (bits, bit, length) => {
        const network = family === 4 ? bits.join('.') : bits.map((w) => w.toString(16)).join(':');
        const hostIp = flipped(bits, bit, family);
        const spec = near(network, `/${length}`);
        const expected = inSubnet(network, length, hostIp, family);
        expect(expected).toBe(bit >= length);
        expect(passes(SimpleCIDRAffinityFilter, at(hostIp), { spec })).toBe(expected);
      }),
      { numRuns: 100 },
    );
  });

  it.each([
    ['has no host_ip', null],
    ['has an empty host_ip', ''],
    ['has a host_ip that is not an address', 'compute-1.example.org'],
    ['has a host_ip with a leading zero', '10.1.2.03'],
    ['has a host_ip with an IPv6 zone', 'fe80::1%eth0'],
  ])('fails a host that %s', (_case, hostIp) => {
    expect(passes(SimpleCIDRAffinityFilter, at(hostIp), { spec: near('10.1.2.3', '/0') })).toBe(false);
  });

  it.each([
    [
      'an IPv4 octet over 255',
      '10.1.2.300',
      '/24',
      "build_near_host_ip='10.1.2.300' with cidr='/24' is not a network: '10.1.2.300' is not an IPv4 or IPv6 address",
    ],
    ['too few IPv4 octets', '10.1.2', '/24', "'10.1.2' is not an IPv4 or IPv6 address"],
    ['a host name', 'compute-1', '/24', "'compute-1' is not an IPv4 or IPv6 address"],
    ['nine IPv6 groups', '1:2:3:4:5:6:7:8:9', '/64', "'1:2:3:4:5:6:7:8:9' is not an IPv4 or IPv6 address"],
    ['two "::" in IPv6', '1::2::3', '/64', "'1::2::3' is not an IPv4 or IPv6 address"],
    ['a five-digit IPv6 group', '12345::1', '/64', "'12345::1' is not an IPv4 or IPv6 address"],
    ['a prefix over 32', '10.1.2.3', '/33', "'/33' is not a prefix length from 0 to 32 or an IPv4 netmask"],
    ['a prefix over 128', '::1', '/129', "'/129' is not a prefix length from 0 to 128 or an IPv6 netmask"],
    ['a negative prefix', '10.1.2.3', '/-1', "'/-1' is not a prefix length"],
    ['a word as prefix', '10.1.2.3', '/wide', "'/wide' is not a prefix length"],
    ['a non-contiguous netmask', '10.1.2.3', '/255.0.255.0', "'/255.0.255.0' is not a prefix length"],
    ['an IPv6 mask on an IPv4 address', '10.1.2.3', '/ffff::', "'/ffff::' is not a prefix length"],
    ['a prefix inside build_near_host_ip too', '10.1.2.3/16', '/24', "'/16/24' is not a prefix length"],
  ])('rejects %s with a RequestError naming the hints', (_case, ip, cidr, message) => {
    const run = () => prepared(SimpleCIDRAffinityFilter, { spec: near(ip, cidr) });
    expect(run).toThrow(RequestError);
    expect(run).toThrow(message);
  });

  it.each([
    [
      'build_near_host_ip',
      near(['10.1.2.3', '10.1.2.4']),
      'build_near_host_ip=["10.1.2.3","10.1.2.4"] must be one IP address',
    ],
    ['cidr', near('10.1.2.3', ['/24', '/16']), `cidr=["/24","/16"] must be one prefix such as '/24'`],
  ])('rejects a list of values for %s', (_case, spec, message) => {
    expect(() => prepared(SimpleCIDRAffinityFilter, { spec })).toThrow(message);
  });

  it('keeps the hosts near the given address', async () => {
    // Prepare
    const hosts = [
      host({ host: 'rack1', host_ip: '192.168.10.5' }),
      host({ host: 'rack2', host_ip: '192.168.11.5' }),
      host({ host: 'unknown' }),
    ];
    // Act
    const left = await survivors(SimpleCIDRAffinityFilter, hosts, { spec: near('192.168.10.77') });
    // Assess
    expect(left).toEqual(['rack1']);
  });

  it('is skipped for the second instance of a multi-create', async () => {
    const hosts = [at('172.16.0.1')];
    expect(await survivors(SimpleCIDRAffinityFilter, hosts, { spec: near('10.0.0.1'), index: 1 })).toEqual([
      'h0',
    ]);
  });

  it.each([
    [
      'outside the network',
      '10.9.9.9',
      'host_ip 10.9.9.9 is outside 10.1.2.3/24 (build_near_host_ip + cidr hints)',
    ],
    [
      'without host_ip',
      null,
      'host reports no host_ip, so it cannot be placed near 10.1.2.3/24 (build_near_host_ip + cidr hints)',
    ],
    [
      'with an unparsable host_ip',
      'nowhere',
      "host_ip 'nowhere' is not an IP address, so it cannot be placed near 10.1.2.3/24",
    ],
    [
      'of the other IP family',
      '2001:db8::1',
      'host_ip 2001:db8::1 is IPv6; 10.1.2.3/24 (build_near_host_ip + cidr hints) is IPv4',
    ],
  ])('explains a host %s', (_case, hostIp, expected) => {
    expect(explanation(SimpleCIDRAffinityFilter, at(hostIp), { spec: near('10.1.2.3') })).toContain(expected);
  });
});
