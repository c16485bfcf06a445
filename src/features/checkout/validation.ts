/** The checkout's rules before anything is sent in the order a shopper meets them. */
import { isEmailAddress } from '@/lib/email';
import type { AddressFields } from './api';
import { CHECKOUT_MESSAGES as MESSAGES } from './contract';

export function checkoutProblem(input: { itemCount: number; email: string; address: AddressFields; methodId: string | null }): string | null {
  if (input.itemCount === 0) return MESSAGES.emptyCart;
  const { addressLine1, city, country } = input.address;
  if (!addressLine1.trim() || !city.trim() || !country.trim()) return MESSAGES.address;
  if (!isEmailAddress(input.email.trim())) return MESSAGES.email;
  if (!input.methodId) return MESSAGES.method;
  return null;
}

/** 'Proceed to Payment' waits for line 1, city, postcode, country and email. */
export function canProceed(email: string, address: AddressFields): boolean {
  return [address.addressLine1, address.city, address.postalCode, address.country, email].every((v) => v.length > 0);
}

/** Quotes are asked for only with a full Australian address. */
export function wantsLiveQuotes(address: AddressFields): boolean {
  return address.country === 'AU' && [address.postalCode, address.city, address.addressLine1].every((v) => v.trim().length > 0);
}
