import ipaddr from 'ipaddr.js';

/**
 * The address a per-address limit counts: an IPv4 address as it is, an IPv6 address by its
 * /64. One home or server gets a whole /64 and can send from any of its 2^64 addresses, so
 * counting them one by one would give it a fresh budget per request (docs/security.md, "Rate
 * limits and quotas"). An IPv4-mapped IPv6 address counts as its IPv4 address.
 */
export function groupAddress(address: string): string {
  // Sockets give IPv4 as a dotted quad already: skip parsing on every request's hot path.
  if (!address.includes(':')) return address;
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const prefix = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${prefix.join(':')}::/64`;
}
