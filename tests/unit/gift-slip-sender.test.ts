import { describe, expect, it } from 'vitest';
import { giftSlipSender } from '@/features/checkout/gift';

describe('who the gift slip says the gift is from', () => {
  it('the buyer, when there is no message or the message is not signed', () => {
    expect(giftSlipSender('', 'Maria Rossi')).toBe('Maria Rossi');
    expect(giftSlipSender(null, 'Maria Rossi')).toBe('Maria Rossi');
    expect(giftSlipSender('Happy First Communion, Lucy!', 'Maria Rossi')).toBe('Maria Rossi');
    // A word that merely contains the first name is not a signature.
    expect(giftSlipSender('Happy Mariachi day', 'Maria Rossi')).toBe('Maria Rossi');
  });

  it.each([
    ['Love, Nonna', 'Happy birthday!\nLove, Nonna'],
    ['From', 'Happy birthday!\nFrom your godmother'],
    ['a dash', 'Happy birthday!\n— Nonna'],
    ['lots of love', 'Happy birthday!\nLots of love xx'],
    ['the full name', 'With every blessing from Maria Rossi'],
    ['the first name', 'Happy birthday Lucy, Maria'],
    ['the name in other case', 'happy birthday!\nmaria rossi'],
  ])('no one when the message is signed (%s)', (_what, message) => {
    expect(giftSlipSender(message, 'Maria Rossi')).toBeNull();
  });

  it('no one when the buyer’s name is unknown', () => {
    expect(giftSlipSender('Happy birthday!', null)).toBeNull();
    expect(giftSlipSender('', '  ')).toBeNull();
  });
});
