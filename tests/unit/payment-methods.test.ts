/** The ways to pay a payment page may offer: pay-later methods never for an order holding a pre-order. */
import { describe, expect, it } from 'vitest';
import { DEFERRED_PAYMENT_METHODS, excludedPaymentMethods } from '@/features/checkout/payment-methods';

describe('payment methods for an order', () => {
  it('an order holding a pre-order leaves out every pay-later method: Afterpay, Klarna, Zip, Affirm', () => {
    expect(excludedPaymentMethods(true)).toEqual(['afterpay_clearpay', 'klarna', 'zip', 'affirm']);
  });

  it('an order of books in stock leaves nothing out: the methods turned on in the dashboard stand', () => {
    expect(excludedPaymentMethods(false)).toEqual([]);
  });

  it('each answer is a list of its own, so a caller changing it changes no other order', () => {
    const first = excludedPaymentMethods(true);
    first.pop();
    expect(excludedPaymentMethods(true)).toHaveLength(DEFERRED_PAYMENT_METHODS.length);
  });
});
