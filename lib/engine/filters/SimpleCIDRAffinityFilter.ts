import { RequestError } from '../../model/errors.js';
import { type RequestSpec, schedulerHint } from '../../model/requestSpec.js';
import { defineFilter, PASS, PASS_ALL, reject } from '../filter.js';
import { addressBits, type IpNetwork, inNetwork, parseAddress, parsePrefix } from '../ipNetwork.js';

interface Network extends IpNetwork {
  /** The network as the hints spelled it, for explanations. */
  text: string;
  /** Each host's address is parsed into this request's buffer, so the check allocates nothing. */
  hostBytes: Uint8Array;
}

const near = (net: Network) => `${net.text} (build_near_host_ip + cidr hints)`;
const NO_HOST_IP = reject<Network>(
  (_host, _spec, net) => `host reports no host_ip, so it cannot be placed near ${near(net)}`,
);
const NOT_AN_ADDRESS = reject<Network>(
  (host, _spec, net) =>
    `host_ip '${host.host_ip}' is not an IP address, so it cannot be placed near ${near(net)}`,
);
const OTHER_FAMILY = reject<Network>(
  (host, _spec, net) =>
    `host_ip ${host.host_ip} is IPv${parseAddress(host.host_ip ?? '', new Uint8Array(16))}; ${near(net)} is IPv${net.family}`,
);
const OUTSIDE = reject<Network>((host, _spec, net) => `host_ip ${host.host_ip} is outside ${near(net)}`);

/**
 * Passes hosts whose `host_ip` lies in the network made of the `build_near_host_ip` and `cidr`
 * (default `/24`) hints, IPv4 or IPv6. Like Nova, the two hints are concatenated as written, and
 * the prefix may be a length or a netmask/hostmask. A host without a parsable host_ip fails. A
 * malformed hint is a RequestError (Nova raises AddrFormatError). Without build_near_host_ip every
 * host passes.
 */
export const SimpleCIDRAffinityFilter = defineFilter<Network>({
  name: 'SimpleCIDRAffinityFilter',
  runFilterOncePerRequest: true,
  prepare: (spec) => {
    const near = schedulerHint(spec, 'build_near_host_ip');
    if (!near || near.length === 0) return PASS_ALL;
    return networkFromHints(spec, near);
  },
  check: (host, _spec, net) => {
    if (!host.host_ip) return NO_HOST_IP;
    const family = parseAddress(host.host_ip, net.hostBytes);
    if (family === 0) return NOT_AN_ADDRESS;
    if (family !== net.family) return OTHER_FAMILY;
    return inNetwork(net.hostBytes, net) ? PASS : OUTSIDE;
  },
});

function networkFromHints(spec: RequestSpec, near: string | string[]): Network {
  const cidr = schedulerHint(spec, 'cidr') ?? '/24';
  if (typeof near !== 'string')
    throw badHint(`build_near_host_ip=${JSON.stringify(near)} must be one IP address`);
  if (typeof cidr !== 'string')
    throw badHint(`cidr=${JSON.stringify(cidr)} must be one prefix such as '/24'`);
  const text = near + cidr;
  const fail = (why: string) =>
    badHint(`build_near_host_ip='${near}' with cidr='${cidr}' is not a network: ${why}`);
  const slash = text.indexOf('/');
  const address = slash < 0 ? text : text.slice(0, slash);
  const bytes = new Uint8Array(16);
  const family = parseAddress(address, bytes);
  if (family === 0) throw fail(`'${address}' is not an IPv4 or IPv6 address`);
  const width = addressBits(family);
  const hostBytes = new Uint8Array(16);
  if (slash < 0) return { family, bytes, prefix: width, text, hostBytes };
  const prefixText = text.slice(slash + 1);
  const prefix = parsePrefix(prefixText, family);
  if (prefix === undefined || prefix < 0 || prefix > width) {
    throw fail(`'/${prefixText}' is not a prefix length from 0 to ${width} or an IPv${family} netmask`);
  }
  return { family, bytes, prefix, text, hostBytes };
}

function badHint(detail: string): RequestError {
  return new RequestError(`SimpleCIDRAffinityFilter: scheduler hint ${detail}`);
}
