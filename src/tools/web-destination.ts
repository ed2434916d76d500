// Where a WebFetch goes: the host's addresses, resolved once, and whether any of them is private
// (loopback, private ranges, link-local, unique-local, and every other range that is not public
// unicast). The addresses found here are the only ones the fetch connects to, so a name that
// resolves to a public address for the check and a private one for the fetch (DNS rebinding)
// cannot slip through.
import { lookup } from 'node:dns/promises';
import { createRequire } from 'node:module';
import { isIP, type LookupFunction } from 'node:net';
import type { IPv6 } from 'ipaddr.js';

type IpAddr = typeof import('ipaddr.js');
let ipaddrModule: IpAddr | undefined;
let globalUnicast: [IPv6, number] | undefined;

/** ipaddr.js loads with the first address judged (WebFetch on an address literal, or a fetch). */
function ipaddr(): IpAddr {
  ipaddrModule ??= createRequire(import.meta.url)('ipaddr.js') as IpAddr;
  return ipaddrModule;
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export type Destination =
  | {
      /** The URL's host name as the URL parser wrote it: lower case, IPv6 in brackets. */
      host: string;
      addresses: ResolvedAddress[];
      /** Some address is not public unicast: the fetch needs a permission of its own. */
      isPrivate: boolean;
      /** The first non-public address, to name in messages. */
      privateAddress?: string;
    }
  | { host: string; error: string };

/** Resolves the host of `url` (every address it has) and classifies what it found. */
export async function resolveDestination(url: URL): Promise<Destination> {
  const host = url.hostname;
  const literal = host.replace(/^\[(.*)\]$/, '$1');
  let addresses: ResolvedAddress[];
  if (isIP(literal) !== 0) {
    addresses = [{ address: literal, family: isIP(literal) as 4 | 6 }];
  } else {
    try {
      const found = await lookup(literal, { all: true, verbatim: true });
      addresses = found.map(({ address, family }) => ({ address, family: family as 4 | 6 }));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return { host, error: `could not resolve ${host}${code ? ` (${code})` : ''}` };
    }
    if (addresses.length === 0) return { host, error: `${host} has no addresses` };
  }
  const privateAddress = addresses.find((entry) => !isPublicAddress(entry.address))?.address;
  return {
    host,
    addresses,
    isPrivate: privateAddress !== undefined,
    ...(privateAddress !== undefined ? { privateAddress } : {}),
  };
}

/**
 * Public unicast only. IPv4 by ipaddr.js's ranges; IPv6 must also lie in 2000::/3, the only
 * global unicast space, which leaves out every form that carries an IPv4 address or names this
 * machine: IPv4-compatible `::127.0.0.1`, `::1`, `::`, NAT64 `64:ff9b::/96` and
 * `64:ff9b:1::/48`, link-local and unique-local (6to4 `2002::/16` and Teredo are ranges of
 * their own). An IPv4-mapped address (`::ffff:a.b.c.d`) is judged as the IPv4 address it maps.
 * A zone id (`fe80::1%eth0`) is parsed, not trusted: it only ever names a link.
 */
export function isPublicAddress(address: string): boolean {
  const literal = address.replace(/^\[(.*)\]$/, '$1');
  const addresses = ipaddr();
  if (!addresses.isValid(literal)) return false;
  const parsed = addresses.parse(literal);
  if (parsed.kind() === 'ipv4') return parsed.range() === 'unicast';
  const v6 = parsed as IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().range() === 'unicast';
  globalUnicast ??= addresses.parseCIDR('2000::/3') as [IPv6, number];
  return v6.match(globalUnicast) && v6.range() === 'unicast';
}

/**
 * A `lookup` for node's http and tls connections that answers with the addresses resolved
 * before, never asking DNS again. Handles both call forms node uses (one address, or `all`).
 */
export function pinnedLookup(addresses: readonly ResolvedAddress[]): LookupFunction {
  return (hostname, options, callback) => {
    const family = typeof options === 'number' ? options : options.family;
    const wanted = family === 4 || family === 6 ? family : undefined;
    const usable = addresses.filter((entry) => wanted === undefined || entry.family === wanted);
    const all = typeof options === 'object' && options.all === true;
    if (usable.length === 0) {
      const error: NodeJS.ErrnoException = new Error(`no IPv${wanted} address for ${hostname}`);
      error.code = 'ENOTFOUND';
      callback(error, all ? [] : '', 0);
      return;
    }
    if (all) callback(null, usable);
    else callback(null, usable[0]!.address, usable[0]!.family);
  };
}
