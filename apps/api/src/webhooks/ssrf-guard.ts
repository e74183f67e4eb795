import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { limitLookups } from './lookup-limit';

/**
 * Every receiver name this process resolves goes through here: at most 2 of libuv's 4 threads at once,
 * a turn waited for at most the connect timeout (WEBHOOK_CONNECT_TIMEOUT_MS, given by the sender; lookup-limit.ts).
 */
const lookupAll = limitLookups((hostname, options, callback) => dnsLookup(hostname, options, callback), 2);

/** Only globally routable unicast addresses may receive webhooks (ipaddr.js range names). */
const ALLOWED_RANGES = new Set(['unicast']);
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96') as [ipaddr.IPv6, number];

export class ForbiddenAddressError extends Error {
  readonly code = 'EFORBIDDENADDRESS';
}

/**
 * True for loopback, private, link-local (which holds the cloud metadata address 169.254.169.254),
 * unique-local, CGNAT, multicast, reserved and unspecified addresses; IPv4-mapped IPv6 is judged as
 * the IPv4 address it carries. The deprecated IPv4-compatible form (::/96, e.g. ::7f00:1 for 127.0.0.1)
 * is refused outright: ipaddr.js calls it unicast, and a stack that still routes it reaches the IPv4
 * address inside.
 */
export function isForbiddenAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return true;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).match(IPV4_COMPATIBLE)) return true;
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return !ALLOWED_RANGES.has(parsed.range());
}

/**
 * The HTTP client's lookup: a limited dns.lookup (lookupAll), refusing forbidden addresses at connect
 * time unless private networks are allowed. The check runs on the very address the socket connects
 * to, so a DNS answer that changes between a check and the connection (DNS rebinding) cannot slip through.
 */
export function receiverLookup(allowPrivateNetworks: boolean, waitMs: number): LookupFunction {
  return (hostname, options, callback) => {
    lookupAll(hostname, { ...options, all: true }, waitMs, (error, list) => {
      if (error) return callback(error, '', 0);
      const bad = allowPrivateNetworks ? undefined : list.find((a) => isForbiddenAddress(a.address));
      if (bad) {
        return callback(new ForbiddenAddressError(`${hostname} resolves to ${bad.address}, a private or reserved address`), '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      return callback(null, list[0].address, list[0].family);
    });
  };
}

/** For URLs whose host is an IP literal, which never reaches a lookup. */
export function forbiddenLiteralHost(url: URL): string | undefined {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (!ipaddr.isValid(host)) return undefined;
  return isForbiddenAddress(host) ? `${host} is a private or reserved address` : undefined;
}
