import { describe, expect, it } from 'vitest';
import { canProceed, missingForProceed } from '@/features/checkout/validation';
import type { AddressFields } from '@/features/checkout/api';

const EMPTY_ADDRESS: AddressFields = { fullName: '', phone: '', addressLine1: '', addressLine2: '', city: '', state: '', postalCode: '', country: 'AU' };

const filled = { ...EMPTY_ADDRESS, addressLine1: '1 Church St', city: 'Parramatta', postalCode: '2150', country: 'AU' };

describe('what Proceed to Payment waits for', () => {
  it('names each missing field in the form’s order', () => {
    expect(missingForProceed('', EMPTY_ADDRESS).map((m) => m.field)).toEqual(['email', 'addressLine1', 'city', 'postalCode']);
    expect(canProceed('ann@example.com', filled)).toBe(true);
  });

  it('for a gift, the recipient’s name too: the parcel’s label is theirs', () => {
    expect(missingForProceed('ann@example.com', filled, true)).toEqual([{ field: 'fullName', name: "recipient's name" }]);
    expect(canProceed('ann@example.com', { ...filled, fullName: '  ' }, true)).toBe(false);
    expect(canProceed('ann@example.com', { ...filled, fullName: 'Lucy Recipient' }, true)).toBe(true);
  });
});
