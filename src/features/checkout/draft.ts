/**
 * The checkout form as the shopper left it, kept in the tab's session storage: Back and Forward, a reload, or
 * a payment page they cancelled bring it back filled in. It is cleared once the order is paid, and goes with
 * the tab.
 */
import { STORAGE_KEYS } from '@/config/constants';
import type { AddressFields } from './api';
import type { GiftChoice } from './gift';

export interface CheckoutDraft {
  email: string;
  address: AddressFields;
  methodId: string | null;
  gift: GiftChoice;
  reminderConsent: boolean;
}

export function readDraft(): Partial<CheckoutDraft> | null {
  try {
    const raw = sessionStorage.getItem(STORAGE_KEYS.checkoutDraft);
    const draft: unknown = raw ? JSON.parse(raw) : null;
    return draft && typeof draft === 'object' ? (draft as Partial<CheckoutDraft>) : null;
  } catch {
    return null;
  }
}

export function saveDraft(draft: CheckoutDraft): void {
  try {
    sessionStorage.setItem(STORAGE_KEYS.checkoutDraft, JSON.stringify(draft));
  } catch {
    // Storage full or blocked: the form still works, it is only not kept.
  }
}

export function clearDraft(): void {
  try {
    sessionStorage.removeItem(STORAGE_KEYS.checkoutDraft);
  } catch {
    // nothing kept, nothing to clear
  }
}
