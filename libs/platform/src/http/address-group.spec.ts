import { addressGroupOf } from './address-group';

describe('addressGroupOf', () => {
  it.each([
    ['an IPv4 address is itself', '203.0.113.9', '203.0.113.9'],
    ['IPv4 stays per address', '203.0.113.10', '203.0.113.10'],
    ['an IPv6 address is its /64', '2001:db8:7:1::a', '2001:db8:7:1::/64'],
    ['every address of the /64 is the same group', '2001:db8:7:1:ffff:ffff:ffff:c', '2001:db8:7:1::/64'],
    ['leading zeros and case do not matter', '2001:0DB8:0007:0001:0000:0000:0000:000E', '2001:db8:7:1::/64'],
    ['a zero network written with ::', '2001:db8::1', '2001:db8:0:0::/64'],
    ['the next /64 is another group', '2001:db8:7:2::a', '2001:db8:7:2::/64'],
    ['the loopback', '::1', '0:0:0:0::/64'],
    ['an IPv4-mapped address is its IPv4 address', '::ffff:203.0.113.9', '203.0.113.9'],
    ['an IPv4-mapped address written in hex', '::ffff:cb00:7109', '203.0.113.9'],
    ['an IPv4-mapped address written in full', '0:0:0:0:0:ffff:cb00:7109', '203.0.113.9'],
    ['a zone index is ignored', 'fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['brackets are ignored', '[2001:db8:7:1::a]', '2001:db8:7:1::/64'],
    ['surrounding spaces are ignored', ' 198.51.100.7 ', '198.51.100.7'],
    ['something that is not an address is left as it is', 'unknown', 'unknown'],
    ['an empty address', '', ''],
  ])('%s', (_name, address, group) => {
    expect(addressGroupOf(address)).toBe(group);
  });
});
