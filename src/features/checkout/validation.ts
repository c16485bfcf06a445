/**
 * The checkout form's fields, in the order a shopper meets them: where a problem is shown, which field is focused
 * first, and what 'Proceed to Payment' waits for. The rules themselves are the request's schemas
 * (`order-fields.ts`), which the form validates with.
 */
import { get, type FieldErrors, type FieldPath } from 'react-hook-form';
import { addressFormat, type AddressField } from './address-format';
import type { AddressFields } from './api';
import type { CheckoutFormInput } from './order-fields';

/** The fields of the checkout form a problem can be shown on, in the form's order. */
export const CHECKOUT_FIELDS = ['email', 'buyerName', 'giftMessage', 'country', 'fullName', 'addressLine1', 'addressLine2', 'city', 'state', 'postalCode', 'phone'] as const satisfies ReadonlyArray<
  'email' | 'buyerName' | 'giftMessage' | 'addressLine2' | 'phone' | AddressField
>;
export type CheckoutField = (typeof CHECKOUT_FIELDS)[number];

/** Each field's place in the form's values, which is its place in the request (and in a refusal's `path`). */
export const FIELD_PATHS = {
  email: 'customerEmail',
  buyerName: 'gift.buyerName',
  giftMessage: 'gift.message',
  country: 'shippingDetails.country',
  fullName: 'shippingDetails.fullName',
  addressLine1: 'shippingDetails.addressLine1',
  addressLine2: 'shippingDetails.addressLine2',
  city: 'shippingDetails.city',
  state: 'shippingDetails.state',
  postalCode: 'shippingDetails.postalCode',
  phone: 'shippingDetails.phone',
} as const satisfies Record<CheckoutField, FieldPath<CheckoutFormInput>>;

/** The element id of a field, which its label, its message and the links to it name. */
export const fieldId = (field: CheckoutField) => `checkout-${field}`;

/** The field a request path names (`shippingDetails.postalCode`), or null when the form has none for it. */
export const fieldOfPath = (path: string): CheckoutField | null => CHECKOUT_FIELDS.find((field) => FIELD_PATHS[field] === path) ?? null;

export interface CheckoutProblem {
  /** The field to mark and focus; none for a problem of the whole order (an empty cart, no delivery method). */
  field?: CheckoutField;
  message: string;
}

/** The first problem in the form's order, with its field: the one focused and told in the toast. */
export function firstProblem(errors: FieldErrors): CheckoutProblem | null {
  for (const field of CHECKOUT_FIELDS) {
    const message = (get(errors, FIELD_PATHS[field]) as { message?: string } | undefined)?.message;
    if (message) return { field, message };
  }
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
