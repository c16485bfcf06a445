import { COUNTRY_NAMES, CURRENCY, LOCALE, SHOP_TIME_ZONE } from '@/config/constants';

/**
 * Made on first use, not when the module loads: building an Intl formatter loads locale and time-zone data,
 * about 100 ms each on a phone-class CPU (200–330 ms under Lighthouse's 4× slowdown here).
 */
function onFirstUse<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

const shortDate = onFirstUse(() => new Intl.DateTimeFormat(LOCALE, { dateStyle: 'short', timeZone: SHOP_TIME_ZONE }));
const longDate = onFirstUse(() => new Intl.DateTimeFormat(LOCALE, { dateStyle: 'long', timeZone: SHOP_TIME_ZONE }));
// With its zone named: a buyer in London reads "2:03 pm AEDT", not a bare 2:03 pm that looks like their own.
const dateTime = onFirstUse(
  () => new Intl.DateTimeFormat(LOCALE, { day: 'numeric', month: 'short', year: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short', timeZone: SHOP_TIME_ZONE }),
);
// en-CA writes a date as yyyy-mm-dd, the form date fields and the database's dates take.
const isoDay = onFirstUse(() => new Intl.DateTimeFormat('en-CA', { timeZone: SHOP_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }));

/**
 * A price in AUD for the en-AU locale, e.g. "$1,234.50", as `Intl.NumberFormat('en-AU', { style: 'currency',
 * currency: 'AUD' })` writes it (tests/unit/format.test.ts holds the two equal), but without building that
 * formatter: its locale data cost the shop pages their longest task, on the live price drawn after load and on
 * the first tap's drawer. Intl rounds the number as written (1.005 to 1.01), half away from zero; so does this,
 * by shifting the written number's decimal point.
 */
export function formatPrice(amount: number): string {
  const size = Math.abs(amount);
  const shifted = Number(`${size}e2`);
  const cents = Math.round(Number.isNaN(shifted) ? size * 100 : shifted);
  const whole = String(Math.floor(cents / 100)).replace(/\B(?=(\d{3})+$)/g, ',');
  const sign = amount < 0 || Object.is(amount, -0) ? '-' : '';
  return `${sign}$${whole}.${String(cents % 100).padStart(2, '0')}`;
}

/** A price with its currency named, for a shopper abroad to whom "$" means their own dollar or nothing. */
export function formatPriceAud(amount: number): string {
  return `${formatPrice(amount)} ${CURRENCY}`;
}

/** en-AU short date in Sydney, e.g. "22/11/2026". */
export function formatShortDate(value: string | Date): string {
  return shortDate().format(new Date(value));
}

/** e.g. "15 April 2025". */
export function formatLongDate(value: string | Date): string {
  return longDate().format(new Date(value));
}

/** The shop's day (SHOP_TIME_ZONE) at a moment, yyyy-mm-dd: the day its sales days and codes count in. */
export function shopDay(at: Date = new Date()): string {
  return isoDay().format(at);
}

/** A moment in Sydney time with its zone, e.g. "24 Nov 2026, 11:05 am AEDT": the one way every page and email writes a time. */
export function formatDateTime(value: string | Date): string {
  return dateTime().format(new Date(value));
}

/**
 * The order number as buyers, the publisher and the shipping platform read it, from the number the database gave
 * the order (`orders.number`: 1001, 1002 …): its digits, "1001". The number is the database's; writing it is done
 * where the text is made: here for what the pages, emails and CSV write from the integer they hold, and in SQL
 * (public.order_label) only where the database writes the text itself (the shipping platform's key, the label
 * run). tests/integration/order-numbers.test.ts holds the two alike, as it does an invoice's (invoice_label).
 */
export function orderNumber(number: number): string {
  return String(number);
}

/** A country's name written out in full ("United Kingdom" for GB), for labels and the back office; an unknown code as it is. */
export function countryName(code: string | undefined): string {
  const upper = (code ?? '').trim().toUpperCase();
  return (COUNTRY_NAMES as Record<string, string>)[upper] ?? (code ?? '').trim();
}

/** `n` things in words, for every count the shop and the back office write: "1 copy", "3 copies", "1,200 orders". */
export const countOf = (n: number, one: string, many = `${one}s`): string => `${n.toLocaleString('en-AU')} ${n === 1 ? one : many}`;
