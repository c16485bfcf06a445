import { describe, expect, it } from 'vitest';
import { checkShipment, isAuspostTrackingNumber, s10CheckDigit } from '@/features/shipping/shipment';

describe('Australia Post tracking numbers, checked as Australia Post checks them', () => {
  it('computes the S10 check digit: weights 8 6 4 2 3 5 9 7, 11 minus the sum mod 11, 10 → 0 and 11 → 5', () => {
    // 1·8 + 2·6 + 3·4 + 4·2 + 5·3 + 6·5 + 7·9 + 8·7 = 204; 204 mod 11 = 6; 11 − 6 = 5.
    expect(s10CheckDigit('12345678')).toBe(5);
    // The standard's own example, AA473124829GB: 4·8 + 7·6 + 3·4 + 1·2 + 2·3 + 4·5 + 8·9 + 2·7 = 200; 200 mod 11 = 2; 11 − 2 = 9.
    expect(s10CheckDigit('47312482')).toBe(9);
    // A sum that is a multiple of 11 gives 11, written 5: 1·8 + 1·3 = 11.
    expect(s10CheckDigit('10001000')).toBe(5);
    // A sum of 1 mod 11 gives 10, written 0: 1·3 + 1·9 = 12; 12 mod 11 = 1.
    expect(s10CheckDigit('00001010')).toBe(0);
  });

  it('accepts an international number whose check digit matches, and refuses one that does not', () => {
    expect(isAuspostTrackingNumber('RR123456785AU')).toBe(true);
    expect(isAuspostTrackingNumber('AA473124829GB')).toBe(true);
    expect(isAuspostTrackingNumber('RR123456789AU')).toBe(false);
    expect(isAuspostTrackingNumber('CP100010005AU')).toBe(true);
    expect(isAuspostTrackingNumber('CP000010100AU')).toBe(true);
    expect(isAuspostTrackingNumber('CP000010101AU')).toBe(false);
  });

  it('keeps the domestic rule for other numbers: 10 to 23 letters and digits', () => {
    expect(isAuspostTrackingNumber('33ABC1234567')).toBe(true);
    expect(isAuspostTrackingNumber('12')).toBe(false);
  });

  it('says what is wrong, with a valid example, and the example passes its own rule', () => {
    const bad = checkShipment({ carrier: 'auspost', trackingNumber: 'rr 123 456 789 au' });
    expect(bad).toEqual({
      error: 'RR123456789AU is not a valid international tracking number: its check digit (the last digit) does not match. Copy it again from the label, e.g. RR123456785AU.',
      field: 'trackingNumber',
    });
    const short = checkShipment({ carrier: 'auspost', trackingNumber: '12' });
    expect(short).toEqual({ error: 'An Australia Post tracking number is 10 to 23 letters and digits, e.g. 33ABC1234567 or RR123456785AU.', field: 'trackingNumber' });
    for (const example of ['33ABC1234567', 'RR123456785AU']) {
      expect(checkShipment({ carrier: 'auspost', trackingNumber: example })).toEqual({ shipment: { carrier: 'Australia Post', trackingNumber: example } });
    }
  });
});
