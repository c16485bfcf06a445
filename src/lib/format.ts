import { COUNTRY_NAMES, CURRENCY, LOCALE, LIMITS } from '@/config/constants';

const priceFormat = new Intl.NumberFormat(LOCALE, { style: 'currency', currency: CURRENCY });
// The shop's days are Sydney's, wherever the screen is: the same day the sales figures and the slips name.
const shortDate = new Intl.DateTimeFormat(LOCALE, { dateStyle: 'short', timeZone: 'Australia/Sydney' });
const longDate = new Intl.DateTimeFormat(LOCALE, { dateStyle: 'long', timeZone: 'Australia/Sydney' });

/** A price in AUD for the en-AU locale, e.g. "$9.50". */
export function formatPrice(amount: number): string {
  return priceFormat.format(amount);
}

/** A price with its currency named, for a shopper abroad to whom "$" means their own dollar or nothing. */
export function formatPriceAud(amount: number): string {
  return `${priceFormat.format(amount)} AUD`;
}

/** en-AU short date in Sydney, e.g. "22/11/2026". */
export function formatShortDate(value: string | Date): string {
  return shortDate.format(new Date(value));
}

/** e.g. "15 April 2025". */
export function formatLongDate(value: string | Date): string {
  return longDate.format(new Date(value));
}

const dateTime = new Intl.DateTimeFormat('en-AU', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Australia/Sydney' });

/** A moment in Sydney time, e.g. "24 Nov 2026, 11:05 am". */
export function formatDateTime(value: string | Date): string {
  return dateTime.format(new Date(value));
}

/** The order number shown to buyers: the first characters of the order id, uppercase. */
export function orderNumber(orderId: string): string {
  return orderId.slice(0, LIMITS.orderNumberLength).toUpperCase();
}

/** A country's name written out in full ("United Kingdom" for GB), for labels and the back office; an unknown code as it is. */
export function countryName(code: string | undefined): string {
  const upper = (code ?? '').trim().toUpperCase();
  return (COUNTRY_NAMES as Record<string, string>)[upper] ?? (code ?? '').trim();
}
