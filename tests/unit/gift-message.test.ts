/** The gift message's one rule, as the checkout page counts it and the server checks it. */
import { describe, expect, it } from 'vitest';
import { GIFT_MESSAGES, giftMessageLength, giftMessageProblem, normaliseGiftMessage } from '../../src/features/checkout/gift';
import { checkoutFormProblem } from '../helpers/checkout-form';

describe('a gift message', () => {
  it('is counted in characters as a person counts them, after trimming and with Windows line breaks as one', () => {
    expect(giftMessageLength('  Love, Nonna  ')).toBe(11);
    expect(giftMessageLength('🎁🎉')).toBe(2);
    // Graphemes, not code points: a family (seven code points), a flag (two) and an e with a combining accent (two).
    expect(giftMessageLength('👨‍👩‍👧‍👦🇦🇺e\u0301')).toBe(3);
    expect(giftMessageProblem('👨‍👩‍👧‍👦'.repeat(30))).toBeNull();
    expect(normaliseGiftMessage('Dear Lucy,\r\nLove,\rNonna')).toBe('Dear Lucy,\nLove,\nNonna');
  });

  it('may be up to 200 characters on up to 6 lines', () => {
    expect(giftMessageProblem('x'.repeat(200))).toBeNull();
    expect(giftMessageProblem('🎁'.repeat(200))).toBeNull();
    expect(giftMessageProblem('x'.repeat(201))).toBe(GIFT_MESSAGES.tooLong);
    expect(giftMessageProblem('1\n2\n3\n4\n5\n6')).toBeNull();
    expect(giftMessageProblem('1\n2\n3\n4\n5\n6\n7')).toBe(GIFT_MESSAGES.tooManyLines);
  });

  it.each(['\t', '\u0000', '\u0007', '\u001b', '\u007f', '\u0085', '\u2028'])('refuses the control character U+%s', (character) => {
    expect(giftMessageProblem(`Dear${character}Lucy`)).toBe(GIFT_MESSAGES.control);
  });

  it.each(['\u200e', '\u200f', '\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069', '\u061c'])(
    'drops the invisible direction mark U+%s without refusing the message',
    (mark) => {
      expect(giftMessageProblem(`${mark}Dear${mark} Lucy${mark}`)).toBeNull();
      expect(normaliseGiftMessage(`${mark}Dear${mark} Lucy${mark}`)).toBe('Dear Lucy');
      expect(giftMessageLength(`Dear${mark} Lucy`)).toBe(9);
    },
  );

  it('is checked before the order is sent, and a gift needs the recipient’s name', async () => {
    const address = { fullName: '', phone: '', addressLine1: '1 Church St', addressLine2: '', city: 'Parramatta', state: 'NSW', postalCode: '2150', country: 'AU' };
    const order = { email: 'nonna@example.com', address };
    expect(await checkoutFormProblem({ ...order, gift: { isGift: true, message: 'x'.repeat(201), hidePrices: false } })).toEqual({ field: 'giftMessage', message: GIFT_MESSAGES.tooLong });
    expect(await checkoutFormProblem({ ...order, gift: { isGift: true, message: 'Love', hidePrices: true } })).toEqual({ field: 'fullName', message: GIFT_MESSAGES.recipient });
    expect(await checkoutFormProblem({ ...order, address: { ...address, fullName: 'Lucy' }, gift: { isGift: true, message: 'Love', hidePrices: true } })).toBeNull();
    // Not a gift: the message is not looked at, and the name may be left out.
    expect(await checkoutFormProblem({ ...order, gift: { isGift: false, message: '\t', hidePrices: false } })).toBeNull();
  });
});
