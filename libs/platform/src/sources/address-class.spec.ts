import { AddressClass, classifyIpLiteral, parseIpv4 } from './address-class';

describe('classifyIpLiteral', () => {
  const cases: { address: string; expected: AddressClass | null }[] = [
    { address: '127.0.0.1', expected: 'loopback' },
    { address: '2130706433', expected: 'loopback' },
    { address: '0x7f000001', expected: 'loopback' },
    { address: '0x7f.1', expected: 'loopback' },
    { address: '0177.0.0.1', expected: 'loopback' },
    { address: '017700000001', expected: 'loopback' },
    { address: '127.1', expected: 'loopback' },
    { address: '127.0.0.1.', expected: 'loopback' },
    { address: '[::1]', expected: 'loopback' },
    { address: '::1', expected: 'loopback' },
    { address: '[::ffff:127.0.0.1]', expected: 'loopback' },
    { address: '::ffff:7f00:1', expected: 'loopback' },
    { address: '64:ff9b::a9fe:a9fe', expected: 'link_local' },
    { address: '2002:0a00:0001::', expected: 'private' },
    { address: '169.254.169.254', expected: 'link_local' },
    { address: '[::ffff:169.254.169.254]', expected: 'link_local' },
    { address: '10.0.0.1', expected: 'private' },
    { address: '10.255.255.255', expected: 'private' },
    { address: '172.16.0.1', expected: 'private' },
    { address: '172.31.255.255', expected: 'private' },
    { address: '192.168.1.1', expected: 'private' },
    { address: '100.64.0.1', expected: 'cgnat' },
    { address: '100.127.255.255', expected: 'cgnat' },
    { address: 'fc00::1', expected: 'unique_local' },
    { address: 'fd12:3456::1', expected: 'unique_local' },
    { address: 'fe80::1', expected: 'link_local' },
    { address: 'fe80::1%eth0', expected: 'link_local' },
    { address: 'ff02::1', expected: 'multicast' },
    { address: '224.0.0.1', expected: 'multicast' },
    { address: '0.0.0.0', expected: 'unspecified' },
    { address: '0', expected: 'unspecified' },
    { address: '::', expected: 'unspecified' },
    { address: '255.255.255.255', expected: 'reserved' },
    { address: '2001:db8::1', expected: 'reserved' },
    { address: '8.8.8.8', expected: 'public' },
    { address: '172.32.0.1', expected: 'public' },
    { address: '100.128.0.1', expected: 'public' },
    { address: '193.62.193.80', expected: 'public' },
    { address: '2606:4700::1', expected: 'public' },
    { address: '[2a00:1450:4001:81a::200e]', expected: 'public' },
    { address: 'rest.uniprot.org', expected: null },
    { address: '1.2.3.4.5', expected: null },
    { address: '256.1.1.1', expected: null },
    { address: '08.1.1.1', expected: null },
  ];

  it.each(cases)('$address is $expected', ({ address, expected }) => {
    expect(classifyIpLiteral(address)).toBe(expected);
  });
});

describe('parseIpv4', () => {
  it.each([
    { text: '2130706433', bytes: [127, 0, 0, 1] },
    { text: '0x7f.1', bytes: [127, 0, 0, 1] },
    { text: '192.168.257', bytes: [192, 168, 1, 1] },
    { text: '1.2.3.4', bytes: [1, 2, 3, 4] },
    { text: '4294967296', bytes: null },
    { text: '1.2.3.256', bytes: null },
  ])('$text', ({ text, bytes }) => expect(parseIpv4(text)).toEqual(bytes));
});
