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

/** A field 'Proceed to Payment' waits for, with the words that name it to the shopper ("email", "postcode"). */
export interface MissingField {
  field: CheckoutField;
  name: string;
}

/**
 * What 'Proceed to Payment' still waits for, in the form's order: email, the recipient's name for a gift (its
 * label is the recipient's), line 1, city and the postal code where the post needs one (the country is always
 * chosen).
 */
export function missingForProceed(email: string, address: AddressFields, isGift = false): MissingField[] {
  const format = addressFormat(address.country);
  const needed: Array<[CheckoutField, string, string]> = [
    ['email', email, 'email'],
    ...(isGift ? [['fullName', address.fullName.trim(), "recipient's name"] as [CheckoutField, string, string]] : []),
    ['addressLine1', address.addressLine1, 'street address'],
    ['city', address.city, format.city.toLowerCase()],
  ];
  if (format.postal.required) needed.push(['postalCode', address.postalCode, format.postal.label.toLowerCase()]);
  // Anything typed counts here; what is wrong with it is said on its field when Proceed is pressed.
  return needed.filter(([, value]) => value.length === 0).map(([field, , name]) => ({ field, name }));
}

/** 'Proceed to Payment' waits for line 1, city, country, email and the postal code where the post needs one. */
export function canProceed(email: string, address: AddressFields, isGift = false): boolean {
  return missingForProceed(email, address, isGift).length === 0;
}

/** Quotes are asked for with a full Australian address, or as soon as a country abroad is chosen. */
export function wantsLiveQuotes(address: AddressFields): boolean {
  // Abroad the carrier prices by the country and the weight alone.
  if (address.country !== 'AU') return address.country.trim().length > 0;
  return [address.postalCode, address.city, address.addressLine1].every((v) => v.trim().length > 0);
}
