import { isIPv6 } from 'node:net';

/** What an IP address is for; only `public` addresses may be reached by an http(s) source. */
export type AddressClass =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link_local'
  | 'unique_local'
  | 'multicast'
  | 'unspecified'
  | 'cgnat'
  | 'reserved';

export interface IpAddress {
  version: 4 | 6;
  /** 4 or 16 bytes, network order. */
  bytes: number[];
}

/**
 * An IPv4 address in any notation `inet_aton` accepts (and so a resolver or URL parser might):
 * one to four parts, each decimal, octal (leading 0) or hex (0x), the last part filling the
 * remaining bytes: `2130706433`, `0x7f.1`, `0177.0.0.1` and `127.1` all mean 127.0.0.1.
 */
export function parseIpv4(text: string): number[] | null {
  const trimmed = text.endsWith('.') ? text.slice(0, -1) : text;
  const parts = trimmed.split('.');
  if (parts.length < 1 || parts.length > 4) return null;
  const values: number[] = [];
  for (const part of parts) {
    let value: number;
    if (/^0x[0-9a-f]*$/i.test(part)) value = part.length === 2 ? 0 : parseInt(part.slice(2), 16);
    else if (/^0[0-7]+$/.test(part)) value = parseInt(part.slice(1), 8);
    else if (/^(0|[1-9][0-9]*)$/.test(part)) value = Number(part);
    else return null;
    if (!Number.isSafeInteger(value)) return null;
    values.push(value);
  }
  const last = values.pop()!;
  if (values.some((v) => v > 255)) return null;
  const lastBytes = 4 - values.length;
  if (last >= 256 ** lastBytes) return null;
  const tail: number[] = [];
  for (let i = lastBytes - 1; i >= 0; i -= 1) tail.push(Math.floor(last / 256 ** i) % 256);
  return [...values, ...tail];
}

/** An IPv6 address, with or without brackets or a zone (`%eth0`), including an embedded IPv4 tail. */
export function parseIpv6(text: string): number[] | null {
  let body = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const zone = body.indexOf('%');
  if (zone >= 0) body = body.slice(0, zone);
  if (!isIPv6(body)) return null;
  let tail: number[] = [];
  const lastColon = body.lastIndexOf(':');
  if (body.slice(lastColon + 1).includes('.')) {
    const v4 = parseIpv4(body.slice(lastColon + 1));
    if (v4 === null) return null;
    tail = v4;
    body = `${body.slice(0, lastColon + 1)}0:0`;
  }
  const [head, rest] = body.split('::') as [string, string | undefined];
  const groups = (part: string | undefined): string[] =>
    part === undefined || part === '' ? [] : part.split(':');
  const left = groups(head);
  const right = groups(rest);
  const fill = rest === undefined ? 0 : 8 - left.length - right.length;
  const all = [...left, ...Array<string>(fill).fill('0'), ...right];
  if (all.length !== 8) return null;
  const bytes = all.flatMap((group) => {
    const value = parseInt(group, 16);
    return [value >> 8, value & 0xff];
  });
  if (tail.length === 4) bytes.splice(12, 4, ...tail);
  return bytes;
}

/** An IP literal in any notation (a host name gives null). */
export function parseIpAddress(text: string): IpAddress | null {
  const v6 = text.includes(':') ? parseIpv6(text) : null;
  if (v6 !== null) return { version: 6, bytes: v6 };
  const v4 = text.includes(':') ? null : parseIpv4(text);
  return v4 === null ? null : { version: 4, bytes: v4 };
}

const inRange = (bytes: number[], prefix: number[], bits: number): boolean => {
  for (let bit = 0; bit < bits; bit += 1) {
    const byte = bit >> 3;
    const mask = 0x80 >> (bit & 7);
    if (((bytes[byte] ?? 0) & mask) !== ((prefix[byte] ?? 0) & mask)) return false;
  }
  return true;
};

const V4_RANGES: [number[], number, AddressClass][] = [
  [[0, 0, 0, 0], 8, 'unspecified'],
  [[10, 0, 0, 0], 8, 'private'],
  [[100, 64, 0, 0], 10, 'cgnat'],
  [[127, 0, 0, 0], 8, 'loopback'],
  [[169, 254, 0, 0], 16, 'link_local'],
  [[172, 16, 0, 0], 12, 'private'],
  [[192, 0, 0, 0], 24, 'reserved'],
  [[192, 0, 2, 0], 24, 'reserved'],
  [[192, 88, 99, 0], 24, 'reserved'],
  [[192, 168, 0, 0], 16, 'private'],
  [[198, 18, 0, 0], 15, 'reserved'],
  [[198, 51, 100, 0], 24, 'reserved'],
  [[203, 0, 113, 0], 24, 'reserved'],
  [[224, 0, 0, 0], 4, 'multicast'],
  [[240, 0, 0, 0], 4, 'reserved'],
];

function classifyV4(bytes: number[]): AddressClass {
  for (const [prefix, bits, kind] of V4_RANGES) if (inRange(bytes, prefix, bits)) return kind;
  return 'public';
}

const hex = (text: string): number[] => parseIpv6(text)!;

function classifyV6(bytes: number[]): AddressClass {
  if (bytes.every((b) => b === 0)) return 'unspecified';
  if (inRange(bytes, hex('::1'), 128)) return 'loopback';
  // Addresses that carry an IPv4 address (mapped, NAT64, 6to4) are what that address is.
  if (inRange(bytes, hex('::ffff:0:0'), 96)) return classifyV4(bytes.slice(12));
  if (inRange(bytes, hex('64:ff9b::'), 96)) return classifyV4(bytes.slice(12));
  if (inRange(bytes, hex('2002::'), 16)) return classifyV4(bytes.slice(2, 6));
  if (inRange(bytes, hex('fc00::'), 7)) return 'unique_local';
  if (inRange(bytes, hex('fe80::'), 10)) return 'link_local';
  if (inRange(bytes, hex('fec0::'), 10)) return 'private';
  if (inRange(bytes, hex('ff00::'), 8)) return 'multicast';
  // Teredo hides an obfuscated IPv4 address; documentation addresses route nowhere.
  if (inRange(bytes, hex('2001::'), 32) || inRange(bytes, hex('2001:db8::'), 32)) return 'reserved';
  return inRange(bytes, hex('2000::'), 3) ? 'public' : 'reserved';
}

export function classifyAddress(address: IpAddress): AddressClass {
  return address.version === 4 ? classifyV4(address.bytes) : classifyV6(address.bytes);
}

/** The class of an IP literal in any notation, or null for a host name. */
export function classifyIpLiteral(text: string): AddressClass | null {
  const address = parseIpAddress(text);
  return address === null ? null : classifyAddress(address);
}
