/**
 * The period's orders as a CSV in the column layout of Xero's sales-invoice import (its template's headers, one
 * row per invoice line, dates as DD/MM/YYYY), which an accountant's spreadsheet also opens as it is. Each order is
 * one invoice: its books, a negative line for a promotion code's discount, its shipping, and a negative line for what was refunded, so each invoice totals what
 * the shop kept. The contact is the buyer (a gift's recipient is the delivery name, in the reference); an invoice's
 * contact is the school or parish, its reference the invoice's number and their PO number. Amounts are what the buyer paid, GST included: choose "Tax inclusive" when importing.
 */
import { SITE } from '@/config/site';
import { csvLines } from '@/lib/csv';
import { countryName, orderNumber } from '@/lib/format';
import type { SaleOrder } from './sales-api';

export const XERO_HEADER = [
  '*ContactName',
  'EmailAddress',
  'POAddressLine1',
  'POAddressLine2',
  'POAddressLine3',
  'POAddressLine4',
  'POCity',
  'PORegion',
  'POPostalCode',
  'POCountry',
  '*InvoiceNumber',
  'Reference',
  '*InvoiceDate',
  '*DueDate',
  'InventoryItemCode',
  '*Description',
  '*Quantity',
  '*UnitAmount',
  'Discount',
  '*AccountCode',
  '*TaxType',
  'TrackingName1',
  'TrackingOption1',
  'TrackingName2',
  'TrackingOption2',
  'Currency',
  'BrandingTheme',
] as const;

/** Xero's default sales account in an Australian chart of accounts. */
const SALES_ACCOUNT = '200';

/** Xero's Australian tax rates: GST on a sale GST applies to (as the database says), none on exports; none unless registered. */
export function taxType(gstApplies: boolean, gstRegistered: boolean = SITE.gstRegistered): string {
  if (!gstRegistered) return 'BAS Excluded';
  return gstApplies ? 'GST on Income' : 'GST Free Income';
}

/** 2026-11-05 → 05/11/2026. */
const dayMonthYear = (isoDate: string) => isoDate.slice(0, 10).split('-').reverse().join('/');

/** Two decimals, as a number (a negative refund stays a number, never text). */
const amount = (value: number) => Math.round(value * 100) / 100;

export function salesCsv(orders: readonly SaleOrder[], gstRegistered: boolean = SITE.gstRegistered): string {
  return csvLines([XERO_HEADER]) + salesCsvLines(orders, gstRegistered);
}

/** The lines of some of the period's orders, without the header: the CSV is written a page of orders at a time. */
export function salesCsvLines(orders: readonly SaleOrder[], gstRegistered: boolean = SITE.gstRegistered): string {
  const rows = orders.flatMap((order) => {
    const a = order.shipping_address;
    const number = orderNumber(order.number);
    // An invoice is dated as the school's copy is: issued on its day, due on its due day. A card order is paid at once.
    const date = dayMonthYear(order.account?.issued_on ?? order.paid_on);
    const due = dayMonthYear(order.account?.due_on ?? order.paid_on);
    const tax = taxType(order.gst_applies, gstRegistered);
    // The contact is the buyer, as the database names them (public.order_buyer_name); a gift's delivery name (the
    // recipient's) goes in the reference. A buyer whose name is unknown is filed under their email, never under a
    // recipient or a placeholder.
    const buyer = order.organisation || order.buyer_name || order.customer_email;
    // An order bought on account is filed under the invoice the school holds (INV-…); the order and the PO number,
    // as the school gave it, are its reference.
    const onAccount = order.organisation && order.invoice_number ? order.invoice_number : null;
    const reference = order.organisation
      ? [`Order ${number}`, order.po_number && `PO number: ${order.po_number}`].filter(Boolean).join(' · ')
      : buyer === order.customer_name
        ? ''
        : `Deliver to ${order.customer_name}`;
    // A gift's delivery address is the recipient's: the buyer's contact gets no address rather than theirs.
    const postal = order.is_gift
      ? ['', '', '', '', '', '', '', '']
      : [a.addressLine1 ?? a.line1 ?? '', a.addressLine2 ?? a.line2 ?? '', '', '', a.city ?? '', a.state ?? '', a.postalCode ?? a.postal_code ?? '', countryName(order.country)];
    const line = (description: string, quantity: number, unitAmount: number) => [
      buyer,
      order.customer_email,
      ...postal,
      onAccount ?? `Order ${number}`,
      reference,
      date,
      due,
      '',
      description,
      quantity,
      amount(unitAmount),
      '',
      SALES_ACCOUNT,
      tax,
      '',
      '',
      '',
      '',
      'AUD',
      '',
    ];
    return [
      ...order.items.map((item) => line(item.title, item.quantity, item.price_at_time)),
      // A promotion code's discount, as a negative line, so the invoice totals what the buyer paid.
      ...(order.discount_amount > 0 ? [line(`Code ${order.promotion_code ?? ''}`.trim(), 1, -order.discount_amount)] : []),
      ...(order.shipping_amount > 0 ? [line(`Shipping: ${order.delivery_method ?? 'delivery'}`, 1, order.shipping_amount)] : []),
      ...(order.refunded_amount > 0 ? [line(`Refund${order.refund_id ? ` ${order.refund_id}` : ''}`, 1, -order.refunded_amount)] : []),
    ];
  });
  return csvLines(rows);
}
