/**
 * An invoice's totals, priced once by the database (`invoice_totals`), on the embedded backend and on PostgreSQL 17:
 * each line at the cart's quantity price or a changed price with its reason, the rate card's standard service free
 * from the threshold the server function gives (the cart's free-shipping rule), a typed price kept, the GST one
 * eleventh of an Australian total and none for an export, and the draft's save storing exactly what it answers.
 */
import { describe, expect, it } from 'vitest';
import { callFunction, DATABASES, useTestDatabase } from '../helpers/test-databases';

const BOOK = 'totals-book';
const OTHER = 'totals-other';
const ACTOR = 'publisher@example.com';
const standard = { kind: 'rate_card', name: 'AU Standard Courier', amount: 15, free_from: 75 };
const express = { kind: 'rate_card', name: 'AU Express Courier', amount: 25, free_from: null };

describe.each(DATABASES)('an invoice’s totals on the $label', ({ open }) => {
  const db = useTestDatabase(
    open,
    `
      insert into public.products (id, title, price, stock) values ('${BOOK}', 'Totals Book', 22, 100), ('${OTHER}', 'Other Book', 15, 10);
      insert into public.product_quantity_prices (product_id, min_quantity, price) values ('${BOOK}', 10, 20), ('${BOOK}', 25, 18);`,
  );

  const call = <T>(fn: string, args: unknown[]) => callFunction<T>(db, fn, args);
  type Totals = { outcome: string; subtotal: number; total: number; gst: number; shipping: { amount: number; reason: string | null }; lines: Array<Record<string, unknown>> };
  const totals = (draft: Record<string, unknown>) => call<Totals>('invoice_totals', [JSON.stringify({ address: { country: 'AU' }, shipping: standard, ...draft })]);

  it('prices each line at the quantity price, the standard service free from the threshold, GST one eleventh of the total', async () => {
    const few = await totals({ lines: [{ product_id: BOOK, quantity: 3 }] });
    expect(few).toMatchObject({ outcome: 'priced', subtotal: 66, shipping: { amount: 15 }, total: 81, gst: 7.36 });
    expect(few.lines).toEqual([{ product_id: BOOK, title: 'Totals Book', quantity: 3, list_unit_price: 22, unit_price: 22, price_reason: null, amount: 66 }]);
    // 40 copies reach the 25+ price: $720, so the standard service is free.
    expect(await totals({ lines: [{ product_id: BOOK, quantity: 40 }] })).toMatchObject({ subtotal: 720, shipping: { amount: 0 }, total: 720, gst: 65.45 });
    // Exactly the threshold is free; express never is.
    expect(await totals({ lines: [{ product_id: OTHER, quantity: 5 }] })).toMatchObject({ subtotal: 75, shipping: { amount: 0 }, total: 75 });
    expect(await totals({ lines: [{ product_id: BOOK, quantity: 40 }], shipping: express })).toMatchObject({ shipping: { amount: 25 }, total: 745 });
    expect(await totals({ lines: [{ product_id: BOOK, quantity: 3 }], shipping: express })).toMatchObject({ subtotal: 66, shipping: { amount: 25 }, total: 91, gst: 8.27 });
  });

  it('keeps a changed price with its reason, a typed shipping price, and no GST for an export', async () => {
    const changed = await totals({
      lines: [{ product_id: BOOK, quantity: 12, unit_price: 15, price_reason: ' Parish discount ' }],
      shipping: { kind: 'typed', name: 'Courier', amount: 22, reason: 'Two boxes' },
    });
    expect(changed).toMatchObject({ subtotal: 180, shipping: { amount: 22, reason: 'Two boxes' }, total: 202, gst: 18.36 });
    expect(changed.lines[0]).toMatchObject({ list_unit_price: 20, unit_price: 15, price_reason: 'Parish discount', amount: 180 });
    // A "changed" price equal to the quantity price keeps no reason.
    expect((await totals({ lines: [{ product_id: BOOK, quantity: 12, unit_price: 20, price_reason: 'Same' }] })).lines[0]).toMatchObject({ price_reason: null });
    expect(await totals({ address: { country: 'NZ' }, lines: [{ product_id: BOOK, quantity: 3 }], shipping: { ...express, amount: 40 } })).toMatchObject({ total: 106, gst: 0 });
  });

  it('names a book the shop does not sell, and refuses a draft with no books or no shipping', async () => {
    expect(await totals({ lines: [{ product_id: 'no-such-book', quantity: 1 }] })).toEqual({ outcome: 'unknown_book', product_id: 'no-such-book' });
    await expect(totals({ lines: [] })).rejects.toThrow(/1 to 20 books/);
    await expect(totals({ lines: [{ product_id: BOOK, quantity: 1 }], shipping: { kind: 'rate_card' } })).rejects.toThrow(/with its amount/);
  });

  it('the draft’s save stores what it answers', async () => {
    const draft = {
      organisation: 'Holy Family Parish',
      contact_name: 'Fr John',
      email: 'parish@example.org.au',
      address: { line1: '1 Church St', city: 'Kellyville', state: 'NSW', postcode: '2155', country: 'AU' },
      terms_days: 14,
      shipping: standard,
      lines: [
        { product_id: BOOK, quantity: 40 },
        { product_id: OTHER, quantity: 2, unit_price: 12.5, price_reason: 'Sample' },
      ],
    };
    const priced = await totals(draft);
    const saved = await call<{ outcome: string; invoice_id: string }>('invoice_save_draft', [null, null, JSON.stringify(draft), ACTOR]);
    expect(saved.outcome).toBe('saved');
    const { rows } = await db.admin.query<Record<string, number | string>>(
      `select subtotal::float8 as subtotal, shipping_amount::float8 as shipping, total::float8 as total, gst::float8 as gst from public.invoices where id = $1`,
      [saved.invoice_id],
    );
    expect(rows[0]).toEqual({ subtotal: priced.subtotal, shipping: priced.shipping.amount, total: priced.total, gst: priced.gst });
    const lines = await db.admin.query(
      `select product_id, unit_price::float8 as unit_price, list_unit_price::float8 as list_unit_price, price_reason from public.invoice_lines where invoice_id = $1 order by position`,
      [saved.invoice_id],
    );
    expect(lines.rows).toEqual(priced.lines.map((l) => ({ product_id: l.product_id, unit_price: l.unit_price, list_unit_price: l.list_unit_price, price_reason: l.price_reason })));
  });
});
