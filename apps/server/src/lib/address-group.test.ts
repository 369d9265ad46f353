import { describe, expect, it } from 'vitest';
import { groupAddress } from './address-group.ts';

describe('groupAddress', () => {
  it('keeps IPv4 as it is and groups IPv6 by its /64, however it is written', () => {
    expect(groupAddress('203.0.113.9')).toBe('203.0.113.9');
    expect(groupAddress('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(groupAddress('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(groupAddress('2001:0db8:0001:0002:abcd:ef01:2345:6789')).toBe('2001:db8:1:2::/64');
    expect(groupAddress('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(groupAddress('::1')).toBe('0:0:0:0::/64');
  });

  it('answers something it cannot read as it is, never throws', () => {
    expect(groupAddress('')).toBe('');
    expect(groupAddress('not an address')).toBe('not an address');
  });
});
