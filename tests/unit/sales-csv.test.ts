import { describe, expect, it } from 'vitest';
import type { SaleOrder } from '@/features/admin/sales-api';
import { salesCsv, taxType, XERO_HEADER } from '@/features/admin/sales-csv';

const order = (overrides: Partial<SaleOrder>): SaleOrder => ({
  id: '7dc94722-0000-4000-8000-000000000001',
  number: 1042,
  paid_at: '2026-11-04T23:00:00Z',
  paid_on: '2026-11-05',
  customer_email: 'ann@example.com',
  customer_name: 'Ann Lee',
  // As admin_sales_orders answers it: the buyer's name from public.order_buyer_name.
  buyer_name: 'Ann Lee',
  status: 'processing',
  payment_status: 'paid',
  subtotal_amount: 44,
  discount_amount: 0,
  shipping_amount: 15,
  total_amount: 59,
  refunded_amount: 0,
  refund_id: null,
  country: 'AU',
  gst_applies: true,
  shipping_address: { addressLine1: '7 Packer Lane', city: 'Parramatta', state: 'NSW', postalCode: '2150', country: 'AU' },
  delivery_method: 'AU Standard Courier',
  items: [{ product_id: 'book', title: '=Book A', quantity: 2, price_at_time: 22 }],
  ...overrides,
});

/** Parses the file back: every cell is quoted, rows end in CRLF. */
const parse = (csv: string) =>
  csv
    .trimEnd()
    .split('\r\n')
    .map((row) => [...row.matchAll(/"((?:[^"]|"")*)"/g)].map((m) => m[1]!.replace(/""/g, '"')));

describe("the sales CSV, in Xero's sales-invoice import layout", () => {
  it('a promotion code is a negative line of its own, so the invoice totals what the buyer paid', () => {
    const rows = parse(
      salesCsv(
        [
          order({
            subtotal_amount: 450,
            discount_amount: 45,
            promotion_code: 'PARISH10',
            shipping_amount: 0,
            total_amount: 405,
            items: [{ product_id: 'book', title: 'Book A', quantity: 25, price_at_time: 18 }],
          }),
        ],
        true,
      ),
    );
    const column = (row: string[], name: (typeof XERO_HEADER)[number]) => row[XERO_HEADER.indexOf(name)];
    const lines = rows.slice(1).map((row) => [column(row, '*Description'), column(row, '*Quantity'), column(row, '*UnitAmount')]);
    expect(lines).toEqual([
      ['Book A', '25', '18'],
      ['Code PARISH10', '1', '-45'],
    ]);
    expect(rows.slice(1).reduce((sum, row) => sum + Number(column(row, '*Quantity')) * Number(column(row, '*UnitAmount')), 0)).toBe(405);
  });

  it('an invoice’s contact is the school or parish, its number the invoice’s, its reference the order and their PO number; a credit note is its refund line', () => {
    const rows = parse(
      salesCsv(
        [
          order({
            customer_name: 'Ann Office',
            buyer_name: 'Ann Office',
            organisation: "St Mary's Primary",
            po_number: 'PO-7781',
            invoice_number: 'INV-0042',
            refunded_amount: 30,
            refund_id: 'cn_1',
          }),
        ],
        true,
      ),
    );
    const column = (row: string[], name: (typeof XERO_HEADER)[number]) => row[XERO_HEADER.indexOf(name)];
    expect(rows.slice(1).map((row) => [column(row, '*ContactName'), column(row, '*InvoiceNumber'), column(row, 'Reference')])).toEqual(
      Array(3).fill(["St Mary's Primary", 'INV-0042', 'Order 1042 · PO number: PO-7781']),
    );
    expect(column(rows[3]!, '*Description')).toBe('Refund cn_1');
  });

  it('an invoice is dated as the school’s copy is: issued on its day, due on its due day, whenever it was paid', () => {
    const account = {
      invoice_number: 'INV-0042',
      organisation: "St Mary's Primary",
      po_number: 'PO-7781',
      status: 'paid' as const,
      issued_on: '2026-11-28',
      due_on: '2026-12-28',
      paid_on: '2026-12-02',
      hosted_url: null,
    };
    const rows = parse(salesCsv([order({ paid_on: '2026-12-02', organisation: "St Mary's Primary", invoice_number: 'INV-0042', account }), order({})], true));
    const column = (row: string[], name: (typeof XERO_HEADER)[number]) => row[XERO_HEADER.indexOf(name)];
    expect([column(rows[1]!, '*InvoiceDate'), column(rows[1]!, '*DueDate')]).toEqual(['28/11/2026', '28/12/2026']);
    // A card order is paid at checkout: dated and due the day it was paid.
    expect([column(rows.at(-1)!, '*InvoiceDate'), column(rows.at(-1)!, '*DueDate')]).toEqual(['05/11/2026', '05/11/2026']);
  });

  it('GST on Income for Australian buyers, GST Free Income for exports, BAS Excluded when the shop is not registered', () => {
    expect(taxType(true, true)).toBe('GST on Income');
    expect(taxType(false, true)).toBe('GST Free Income');
    expect(taxType(true, false)).toBe('BAS Excluded');
    // The CSV reads the database's answer, not the country: each order's rows carry its own.
    const rows = parse(salesCsv([order({ country: 'GB', gst_applies: false }), order({})], true));
    const tax = rows.slice(1).map((row) => row[XERO_HEADER.indexOf('*TaxType')]);
    expect(new Set(tax.slice(0, 2))).toEqual(new Set(['GST Free Income']));
    expect(tax.at(-1)).toBe('GST on Income');
  });

  it('one row per line: the books, the shipping and a negative line for a refund, so each invoice totals what was kept', () => {
    const rows = parse(
      salesCsv(
        [
          order({}),
          order({
            id: 'abcdef12-0000-4000-8000-000000000002',
            number: 1043,
            country: 'GB',
            gst_applies: false,
            customer_name: 'Bea Lu',
            shipping_address: { line1: '1 High St', city: 'London', postal_code: 'N1 1AA', country: 'GB' },
            shipping_amount: 25,
            refunded_amount: 47,
            refund_id: 're_1',
            delivery_method: 'International',
            items: [{ product_id: 'book', title: 'Book A', quantity: 1, price_at_time: 22 }],
          }),
        ],
        true,
      ),
    );
    expect(rows[0]).toEqual([...XERO_HEADER]);
    const column = (row: string[], name: (typeof XERO_HEADER)[number]) => row[XERO_HEADER.indexOf(name)];
    const pick = (row: string[]) =>
      ['*InvoiceNumber', '*InvoiceDate', '*Description', '*Quantity', '*UnitAmount', '*AccountCode', '*TaxType', 'POCountry'].map((n) => column(row, n as (typeof XERO_HEADER)[number]));
    expect(rows.slice(1).map(pick)).toEqual([
      ['Order 1042', '05/11/2026', "'=Book A", '2', '22', '200', 'GST on Income', 'Australia'],
      ['Order 1042', '05/11/2026', 'Shipping: AU Standard Courier', '1', '15', '200', 'GST on Income', 'Australia'],
      ['Order 1043', '05/11/2026', 'Book A', '1', '22', '200', 'GST Free Income', 'United Kingdom'],
      ['Order 1043', '05/11/2026', 'Shipping: International', '1', '25', '200', 'GST Free Income', 'United Kingdom'],
      ['Order 1043', '05/11/2026', 'Refund re_1', '1', '-47', '200', 'GST Free Income', 'United Kingdom'],
    ]);
    expect(column(rows[1]!, '*ContactName')).toBe('Ann Lee');
    expect(column(rows[1]!, 'POAddressLine1')).toBe('7 Packer Lane');
    expect(column(rows[3]!, 'POPostalCode')).toBe('N1 1AA');
    expect(column(rows[1]!, 'Currency')).toBe('AUD');
  });

  it('the contact is the buyer; a gift’s recipient is the delivery name, in the reference', () => {
    const rows = parse(
      salesCsv(
        [
          order({ customer_name: 'Lucy Recipient', buyer_name: 'Maria Rossi', is_gift: true }),
          order({ id: 'abcdef12-0000-4000-8000-000000000002', customer_email: 'zed@example.com', customer_name: 'Tom Recipient', buyer_name: null, is_gift: true }),
        ],
        true,
      ),
    );
    const column = (row: string[], name: (typeof XERO_HEADER)[number]) => row[XERO_HEADER.indexOf(name)];
    expect([column(rows[1]!, '*ContactName'), column(rows[1]!, 'Reference')]).toEqual(['Maria Rossi', 'Deliver to Lucy Recipient']);
    // A gift from before buyers' names were kept is filed under the buyer's email, never the recipient's name.
    expect([column(rows[3]!, '*ContactName'), column(rows[3]!, 'Reference')]).toEqual(['zed@example.com', 'Deliver to Tom Recipient']);
    // The delivery address is the recipient's, not the buyer's: the buyer's contact gets none.
    for (const row of [rows[1]!, rows[3]!]) expect([column(row, 'POAddressLine1'), column(row, 'POCity'), column(row, 'POPostalCode'), column(row, 'POCountry')]).toEqual(['', '', '', '']);
  });
});
