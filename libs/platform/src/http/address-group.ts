import { isIPv4 } from 'node:net';
import { parseIpv6 } from '../sources/address-class';

/** How many leading bytes of an IPv6 address name its network: a /64, what one subscriber is given. */
const IPV6_NETWORK_BYTES = 8;

/**
 * The caller an address stands for, as limits and quotas count callers. An IPv4 address is itself.
 * An IPv6 address is its /64 (`2001:db8:0:1::/64`): one subscriber holds a whole /64 and could
 * otherwise claim a fresh budget with each address of it. An IPv4-mapped IPv6 address
 * (`::ffff:203.0.113.9`, an IPv4 client seen through an IPv6 socket) is its IPv4 address. Anything
 * that is not an address is returned unchanged.
 */
export function addressGroupOf(address: string): string {
  const plain = address.trim();
  if (isIPv4(plain)) return plain;
  const bytes = plain.includes(':') ? parseIpv6(plain) : null;
  if (bytes === null) return address;
  if (isIPv4Mapped(bytes)) return bytes.slice(12).join('.');
  const groups: string[] = [];
  for (let i = 0; i < IPV6_NETWORK_BYTES; i += 2)
    groups.push((((bytes[i] ?? 0) << 8) | (bytes[i + 1] ?? 0)).toString(16));
  return `${groups.join(':')}::/64`;
}

/** `::ffff:a.b.c.d`: eighty zero bits, sixteen one bits, then the IPv4 address. */
function isIPv4Mapped(bytes: number[]): boolean {
  return bytes.slice(0, 10).every((byte) => byte === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
}
