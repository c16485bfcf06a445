/** The checkout's rules before anything is sent, in the order a shopper meets them, each with its field. */
import { isEmailAddress } from '@/lib/email';
import { addressFormat, addressProblem, type AddressField } from './address-format';
import type { AddressFields } from './api';
import { CHECKOUT_MESSAGES as MESSAGES } from './contract';
import { GIFT_MESSAGES, giftMessageProblem, type GiftChoice } from './gift';

/** The fields of the checkout form a problem can be shown on. */
export const CHECKOUT_FIELDS = ['email', 'giftMessage', 'fullName', 'addressLine1', 'city', 'state', 'postalCode', 'country', 'phone'] as const satisfies ReadonlyArray<
  'email' | 'giftMessage' | 'phone' | AddressField
>;
export type CheckoutField = (typeof CHECKOUT_FIELDS)[number];

export interface CheckoutProblem {
  /** The field to mark and focus; none for a problem of the whole order (an empty cart, no delivery method). */
  field?: CheckoutField;
  message: string;
}

export function checkoutProblem(input: { itemCount: number; email: string; address: AddressFields; methodId: string | null; gift?: GiftChoice }): CheckoutProblem | null {
  if (input.itemCount === 0) return { message: MESSAGES.emptyCart };
  if (!isEmailAddress(input.email.trim())) return { field: 'email', message: MESSAGES.email };
  if (input.gift?.isGift) {
    const message = giftMessageProblem(input.gift.message);
    if (message) return { field: 'giftMessage', message };
    // The parcel goes to the recipient, under their name: the card's name would be the buyer's.
    if (!input.address.fullName.trim()) return { field: 'fullName', message: GIFT_MESSAGES.recipient };
  }
  const address = addressProblem(input.address);
  if (address) return address;
  if (!input.methodId) return { message: MESSAGES.method };
  return null;
}

/** 'Proceed to Payment' waits for line 1, city, country, email and the postal code where the post needs one. */
export function canProceed(email: string, address: AddressFields): boolean {
  const needed = [address.addressLine1, address.city, address.country, email];
  if (addressFormat(address.country).postal.required) needed.push(address.postalCode);
  return needed.every((v) => v.length > 0);
}

/** Quotes are asked for only with a full Australian address. */
export function wantsLiveQuotes(address: AddressFields): boolean {
  return address.country === 'AU' && [address.postalCode, address.city, address.addressLine1].every((v) => v.trim().length > 0);
}
