/**
 * The checkout form checks what the shopper typed with the request's own schemas, so the page and
 * `create-checkout` say the same words about the same field; the first problem in the form's order is the one
 * focused, and a server refusal's path names the form's field.
 */
import { describe, expect, it } from 'vitest';
import { CHECKOUT_MESSAGES } from '@/features/checkout/contract';
import { GIFT_MESSAGES, NO_GIFT } from '@/features/checkout/gift';
import { checkoutFormSchema, giftSchema, shippingDetailsSchema } from '@/features/checkout/order-fields';
import { fieldOfPath } from '@/features/checkout/validation';
import { checkoutFormProblem } from '../helpers/checkout-form';

const address = { fullName: '', phone: '', addressLine1: '350 Fifth Avenue', addressLine2: '', city: 'New York', state: '', postalCode: '10118', country: 'US' };

describe('the checkout form and create-checkout', () => {
  it('refuse the same field with the same words', () => {
    const form = checkoutFormSchema.safeParse({ customerEmail: 'ann@example.com', shippingDetails: address, reminderConsent: false });
    const server = shippingDetailsSchema.safeParse({ ...address, shippingMethod: { id: 'intl-standard' } });
    expect(form.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['shippingDetails.state', CHECKOUT_MESSAGES.address]]);
    expect(server.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['state', CHECKOUT_MESSAGES.address]]);
  });

  it('focus the first problem in the form’s order, whatever order the schema finds them in', async () => {
    expect(await checkoutFormProblem({ email: 'ann@example', address: { ...address, postalCode: '1', state: 'NY' } })).toEqual({ field: 'email', message: CHECKOUT_MESSAGES.email });
    expect(await checkoutFormProblem({ email: 'ann@example.com', address: { ...address, postalCode: '1', state: 'NY' } })).toEqual({
      field: 'postalCode',
      message: 'Please enter a valid zip code (for example 10001).',
    });
    expect(await checkoutFormProblem({ email: 'ann@example.com', address: { ...address, state: 'NY' }, gift: { ...NO_GIFT, isGift: true } })).toEqual({
      field: 'fullName',
      message: GIFT_MESSAGES.recipient,
    });
  });

  it('a refusal’s path names the form’s field; a path the form has no field for names none', () => {
    expect(fieldOfPath('customerEmail')).toBe('email');
    expect(fieldOfPath('shippingDetails.postalCode')).toBe('postalCode');
    expect(fieldOfPath('gift.message')).toBe('giftMessage');
    expect(fieldOfPath('cartItems')).toBeNull();
  });

  it('an order that is not a gift carries no gift, and its hidden message is not judged', () => {
    expect(giftSchema.parse({ isGift: false, message: 'Dear\tLucy', hidePrices: false })).toEqual(NO_GIFT);
    expect(giftSchema.safeParse({ isGift: true, message: 'Dear\tLucy' }).error?.issues[0]).toMatchObject({ path: ['message'], message: GIFT_MESSAGES.control });
  });
});
