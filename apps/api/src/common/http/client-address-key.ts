import ipaddr from 'ipaddr.js';

/**
 * The key a client address is counted under by the per-address limits (LoginThrottle, SignupThrottle):
 * an IPv4 address as it is; an IPv4-mapped IPv6 address (`::ffff:1.2.3.4`, what a dual-stack socket
 * reports for an IPv4 client) as its IPv4 form, so one client is one key whichever way it arrives; any
 * other IPv6 address as its /64 in canonical form (`2001:db8:1:2::/64`), zone id dropped. An IPv6
 * customer is given a whole /64 at least (often a /56 or /48), so counting addresses one by one would let
 * one client take a new address for every attempt. Anything that is not an address (request.ip should
 * always be one) is returned unchanged.
 */
export function clientAddressKey(ip: string): string {
  if (ipaddr.IPv4.isValidFourPartDecimal(ip)) return ip;
  if (!ipaddr.IPv6.isValid(ip)) return ip;
  const address = ipaddr.IPv6.parse(ip);
  if (address.isIPv4MappedAddress()) return address.toIPv4Address().toString();
  // The first four 16-bit groups are the /64; toString() writes RFC 5952's form (lower case, longest run of zeros as ::).
  return `${new ipaddr.IPv6([...address.parts.slice(0, 4), 0, 0, 0, 0]).toString()}/64`;
}
