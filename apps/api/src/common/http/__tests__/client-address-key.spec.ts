import { clientAddressKey } from '../client-address-key';

describe('clientAddressKey (what the per-address limits count under)', () => {
  it('keeps an IPv4 address as it is', () => {
    expect(clientAddressKey('198.51.100.7')).toBe('198.51.100.7');
    expect(clientAddressKey('127.0.0.1')).toBe('127.0.0.1');
  });

  it('reads an IPv4-mapped IPv6 address as its IPv4 address, however it is written', () => {
    expect(clientAddressKey('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(clientAddressKey('::FFFF:c633:6407')).toBe('198.51.100.7');
    expect(clientAddressKey('0:0:0:0:0:ffff:198.51.100.7')).toBe('198.51.100.7');
  });

  it('counts a full IPv6 address under its /64, in lower case with zeros compressed', () => {
    expect(clientAddressKey('2001:0DB8:0001:0002:0003:0004:0005:0006')).toBe('2001:db8:1:2::/64');
    expect(clientAddressKey('2001:db8:0:0:ffff:ffff:ffff:ffff')).toBe('2001:db8::/64');
    expect(clientAddressKey('2001:db8:1:2:3:4:5:6')).toBe(clientAddressKey('2001:db8:1:2:ffff::1'));
    expect(clientAddressKey('2001:db8:1:2:3:4:5:6')).not.toBe(clientAddressKey('2001:db8:1:3:3:4:5:6'));
  });

  it('expands a compressed IPv6 address before taking its /64', () => {
    expect(clientAddressKey('2001:db8:1:2::7')).toBe('2001:db8:1:2::/64');
    expect(clientAddressKey('2001:db8::1:2:3:4')).toBe('2001:db8::/64');
    expect(clientAddressKey('2001:db8:1::2:3:4')).toBe('2001:db8:1::/64');
    expect(clientAddressKey('fd00:a:b:c::')).toBe('fd00:a:b:c::/64');
  });

  it('counts ::1 under ::/64', () => {
    expect(clientAddressKey('::1')).toBe('::/64');
  });

  it('drops a zone id', () => {
    expect(clientAddressKey('fe80::1%eth0')).toBe('fe80::/64');
    expect(clientAddressKey('fe80::1:2:3:4%2')).toBe(clientAddressKey('fe80::5'));
  });

  it('returns what is not an address unchanged', () => {
    expect(clientAddressKey('')).toBe('');
    expect(clientAddressKey('not an address')).toBe('not an address');
  });
});
