/**
 * Invoices in the database, on the embedded backend and on PostgreSQL 17: drafts priced at the cart's quantity
 * prices, the table's rules, a sent invoice holding its copies as an order of kind 'invoice', two invoices racing for
 * the last copies, void and write-off giving them back, payment keeping them, packing before payment, overdue
 * computed in the list, credit notes counted as refunds in Sales, and the quote requests.
 */
import { describe, expect, it } from 'vitest';
import { schoolInvoiceDraft } from '../helpers/invoice-draft';
import { callFunction, DATABASES, staffUserSql, useTestDatabase } from '../helpers/test-databases';

const STAFF = '00000000-0000-4000-8000-00000000c0c0';
const BOOK = 'class-book';
const OTHER = 'parish-book';
const ACTOR = 'publisher@example.com';

const draft = (over: Record<string, unknown> = {}) => schoolInvoiceDraft({ lines: [{ product_id: BOOK, quantity: 30 }], ...over });

describe.each(DATABASES)('invoices on the $label', ({ open }) => {
  const db = useTestDatabase(
    open,
    `${staffUserSql(STAFF, ACTOR)}
      insert into public.products (id, title, price, stock) values ('${BOOK}', 'Class Book', 20, 100), ('${OTHER}', 'Parish Book', 15, 10);
      insert into public.product_quantity_prices (product_id, min_quantity, price) values ('${BOOK}', 10, 18), ('${BOOK}', 25, 16);`,
  );

  const call = <T>(fn: string, args: unknown[]) => callFunction<T>(db, fn, args);
  const asStaff = async <T>(sql: string, params: unknown[] = []): Promise<T> => (await db.request('authenticated', { sub: STAFF }, `select ${sql} as result`, { params })).rows[0]?.result as T;
  const save = (d: Record<string, unknown>, id: string | null = null, quote: string | null = null) =>
    call<{ outcome: string; invoice_id: string }>('invoice_save_draft', [id, quote, JSON.stringify(d), ACTOR]);
  const send = (id: string) => call<Record<string, unknown>>('invoice_send', [id, 'local-test', ACTOR]);
  const stockOf = async (id: string) => (await db.admin.query<{ stock: number }>(`select stock from public.products where id = $1`, [id])).rows[0]!.stock;
  const setStock = (id: string, stock: number) => db.admin.exec(`update public.products set stock = ${stock} where id = '${id}'`);
  const invoice = async (id: string) =>
    (await db.admin.query<Record<string, unknown>>(`select i.*, i.total::float8 as total_n, i.gst::float8 as gst_n from public.invoices i where i.id = $1`, [id])).rows[0]!;
  const order = async (id: string) => (await db.admin.query<Record<string, unknown>>(`select * from public.orders where id = $1`, [id])).rows[0]!;
  /** Sent and emailed, as the function does once the provider has made and emailed it. */
  const sendAndEmail = async (id: string) => {
    const held = await send(id);
    await call('invoice_provider_step', [id, `in_local_${id}`, null, ACTOR]);
    await call('invoice_provider_step', [id, `in_local_${id}`, 'https://example.com/i', ACTOR]);
    return held;
  };

  it('a draft is priced at the cart’s quantity price; a changed price keeps the list price and its reason; totals and GST follow', async () => {
    const { outcome, invoice_id: id } = await save(draft());
    expect(outcome).toBe('saved');
    const lines = (await db.admin.query(`select list_unit_price::float8 as list, unit_price::float8 as unit, price_reason from public.invoice_lines where invoice_id = $1`, [id])).rows;
    expect(lines).toEqual([{ list: 16, unit: 16, price_reason: null }]);
    expect(await invoice(id)).toMatchObject({ status: 'draft', total_n: 480, gst_n: 43.64, terms_days: 30, po_number: 'PO-7781' });

    await save(
      draft({ lines: [{ product_id: BOOK, quantity: 12, unit_price: 15, price_reason: 'Parish discount' }], shipping: { kind: 'typed', name: 'Courier', amount: 22, reason: 'Two boxes' } }),
      id,
    );
    const changed = (await db.admin.query(`select list_unit_price::float8 as list, unit_price::float8 as unit, price_reason from public.invoice_lines where invoice_id = $1`, [id])).rows;
    expect(changed).toEqual([{ list: 18, unit: 15, price_reason: 'Parish discount' }]);
    expect(await invoice(id)).toMatchObject({ total_n: 202, gst_n: 18.36, shipping_kind: 'typed', shipping_reason: 'Two boxes' });

    // An export pays no GST.
    const abroad = await save(draft({ address: { line1: '1 Main St', city: 'Auckland', state: 'AUK', postcode: '1010', country: 'NZ' } }));
    expect(await invoice(abroad.invoice_id)).toMatchObject({ gst_n: 0 });
  });

  it('the table refuses what breaks a rule: terms other than 14 or 30, a changed price or typed shipping without a reason, a long PO number, a book not for sale', async () => {
    await expect(save(draft({ terms_days: 7 }))).rejects.toThrow();
    await expect(save(draft({ lines: [{ product_id: BOOK, quantity: 12, unit_price: 1 }] }))).rejects.toThrow();
    await expect(save(draft({ shipping: { kind: 'typed', name: 'Courier', amount: 5, reason: null } }))).rejects.toThrow();
    await expect(save(draft({ po_number: 'P'.repeat(61) }))).rejects.toThrow();
    expect(await save(draft({ lines: [{ product_id: 'no-such-book', quantity: 1 }] }))).toEqual({ outcome: 'unknown_book', product_id: 'no-such-book' });
    // GST must be one eleventh of an Australian total, whoever writes the row.
    const { invoice_id: id } = await save(draft());
    await expect(db.admin.exec(`update public.invoices set gst = 1 where id = '${id}'`)).rejects.toThrow();
  });

  it('sending holds the copies under a history row naming the invoice, and makes an order of kind invoice with the organisation and PO number', async () => {
    await setStock(BOOK, 100);
    const { invoice_id: id } = await save(draft());
    const held = await send(id);
    expect(held).toMatchObject({ outcome: 'held', email: 'office@stmarys.example.com', po_number: 'PO-7781', total: 480 });
    expect(await stockOf(BOOK)).toBe(70);
    const sent = await invoice(id);
    expect(sent).toMatchObject({ status: 'sent', provider: 'local-test' });
    const made = await order(sent.order_id as string);
    expect(made).toMatchObject({ kind: 'invoice', organisation: "St Mary's Primary", po_number: 'PO-7781', payment_status: 'unpaid', status: 'pending', customer_email: 'office@stmarys.example.com' });
    const number = `INV-${String(sent.number).padStart(4, '0')}`;
    const history = (await db.admin.query(`select previous_stock, new_stock, reason from public.stock_changes where order_id = $1`, [made.id])).rows;
    expect(history).toEqual([{ previous_stock: 100, new_stock: 70, reason: `Held for invoice ${number}` }]);
    // Sent again: nothing held twice; the provider step is resumed until it is emailed.
    expect(await send(id)).toMatchObject({ outcome: 'resume' });
    await call('invoice_provider_step', [id, `in_local_${id}`, 'https://example.com/i', ACTOR]);
    expect(await send(id)).toEqual({ outcome: 'already_sent' });
    expect(await stockOf(BOOK)).toBe(70);
    // The slip's data names the invoice.
    const slip = await asStaff<Record<string, unknown>>(`public.admin_get_order($1)`, [made.id]);
    expect(slip).toMatchObject({ kind: 'invoice', organisation: "St Mary's Primary", po_number: 'PO-7781', invoice_number: number });
  });

  it('two invoices racing for the last copies: exactly one holds them, the other is refused with what is left', async () => {
    await setStock(OTHER, 5);
    const a = (await save(draft({ lines: [{ product_id: OTHER, quantity: 4 }] }))).invoice_id;
    const b = (await save(draft({ lines: [{ product_id: OTHER, quantity: 4 }] }))).invoice_id;
    const results = await Promise.all([send(a), send(b)]);
    const outcomes = results.map((r) => r.outcome).sort();
    expect(outcomes).toEqual(['held', 'short']);
    expect(results.find((r) => r.outcome === 'short')).toMatchObject({ product_id: OTHER, title: 'Parish Book', available: 1 });
    expect(await stockOf(OTHER)).toBe(1);
    const statuses = (await db.admin.query<{ status: string }>(`select status from public.invoices where id in ($1, $2) order by status`, [a, b])).rows.map((r) => r.status);
    expect(statuses).toEqual(['draft', 'sent']);
  });

  it('voiding gives the copies back; writing off does too; paying keeps them taken and puts the order to pack', async () => {
    await setStock(BOOK, 100);
    const voided = (await save(draft({ lines: [{ product_id: BOOK, quantity: 10 }] }))).invoice_id;
    await sendAndEmail(voided);
    expect(await stockOf(BOOK)).toBe(90);
    expect(await call('invoice_close', [voided, null, 'void', ACTOR])).toBe('closed');
    expect(await stockOf(BOOK)).toBe(100);
    expect(await order((await invoice(voided)).order_id as string)).toMatchObject({ status: 'cancelled', payment_status: 'expired' });
    expect(await call('invoice_close', [voided, null, 'void', ACTOR])).toBe('already');
    expect(await stockOf(BOOK)).toBe(100);

    const written = (await save(draft({ lines: [{ product_id: BOOK, quantity: 10 }] }))).invoice_id;
    await sendAndEmail(written);
    expect(await call('invoice_close', [null, `in_local_${written}`, 'uncollectible', 'Stripe'])).toBe('closed');
    expect(await stockOf(BOOK)).toBe(100);

    const paid = (await save(draft({ lines: [{ product_id: BOOK, quantity: 10 }] }))).invoice_id;
    await sendAndEmail(paid);
    // Only the invoice's own total, in AUD, pays it.
    expect(await call('invoice_mark_paid', [`in_local_${paid}`, 100, 'aud', 'Stripe'])).toBe('mismatch');
    expect(await call('invoice_mark_paid', [`in_local_${paid}`, 18000, 'usd', 'Stripe'])).toBe('mismatch');
    expect(await call('invoice_mark_paid', ['in_someone_else', 18000, 'aud', 'Stripe'])).toBe('unknown');
    expect(await call('invoice_mark_paid', [`in_local_${paid}`, 18000, 'aud', 'Stripe'])).toBe('paid');
    expect(await call('invoice_mark_paid', [`in_local_${paid}`, 18000, 'aud', 'Stripe'])).toBe('already');
    expect(await stockOf(BOOK)).toBe(90);
    const paidOrder = await order((await invoice(paid)).order_id as string);
    expect(paidOrder).toMatchObject({ payment_status: 'paid', status: 'processing' });
    expect(paidOrder.paid_at).not.toBeNull();
    // Paid: it cannot be voided, and its copies were never written twice in the history.
    expect(await call('invoice_close', [paid, null, 'void', ACTOR])).toBe('not_open');
    // Its money goes back by a credit note, never by cancelling the order as a card order's would.
    expect(await call('cancel_paid_order', [paidOrder.id, ACTOR])).toBe('on_account');
    const rows = (await db.admin.query(`select reason from public.stock_changes where order_id = $1`, [paidOrder.id])).rows;
    expect(rows).toHaveLength(1);
    const toPack = await asStaff<{ orders: Array<{ id: string; organisation: string }> }>(`public.admin_list_orders('to_pack', '', null, 200)`);
    expect(toPack.orders.map((o) => o.id)).toContain(paidOrder.id);
  });

  it('an invoice shipped before payment is to pack at once, can be shipped unpaid, and keeps its copies if voided after shipping', async () => {
    await setStock(BOOK, 100);
    const id = (await save(draft({ lines: [{ product_id: BOOK, quantity: 5 }] }))).invoice_id;
    await sendAndEmail(id);
    const orderId = (await invoice(id)).order_id as string;
    const toPack = async () => (await asStaff<{ orders: Array<{ id: string }> }>(`public.admin_list_orders('to_pack', '', null, 200)`)).orders.map((o) => o.id);
    expect(await toPack()).not.toContain(orderId);
    expect(await call('invoice_set_ship_before_payment', [id, true, ACTOR])).toBe('changed');
    expect(await toPack()).toContain(orderId);
    expect(await asStaff<number>(`public.staff_orders_to_pack()`)).toBeGreaterThanOrEqual(1);
    expect(await call('ship_order', [orderId, '33ABC1234567', 'auspost', ACTOR])).toBe('shipped');
    expect(await call('invoice_set_ship_before_payment', [id, false, ACTOR])).toBe('not_open');
    expect(await call('invoice_close', [id, null, 'void', ACTOR])).toBe('closed');
    expect(await stockOf(BOOK)).toBe(95);
  });

  it('to pack is one rule: the list, the count, the label run and the platform send agree on an invoice packed before payment', async () => {
    await setStock(BOOK, 100);
    const id = (await save(draft({ organisation: 'One Rule School', lines: [{ product_id: BOOK, quantity: 2 }] }))).invoice_id;
    await sendAndEmail(id);
    const orderId = (await invoice(id)).order_id as string;
    const listed = async () => (await asStaff<{ orders: Array<{ id: string }> }>(`public.admin_list_orders('to_pack', '', null, 200)`)).orders.map((o) => o.id);
    const labelRun = async () => (await call<Array<{ id: string; number: string }>>('orders_to_pack', [1000])).map((o) => o.id);
    const count = () => asStaff<number>(`public.staff_orders_to_pack()`);
    const claim = async () => (await call<{ outcome: string }>('claim_shipment_send', [orderId, 'local-test'])).outcome;
    // Unpaid and packed once paid: on none of them, and not sent to the platform.
    expect(await listed()).not.toContain(orderId);
    expect(await labelRun()).not.toContain(orderId);
    expect(await claim()).toBe('not_to_pack');
    const before = await count();
    // Packed before payment: on every one of them at once, and sent to the platform as a paid order is.
    expect(await call('invoice_set_ship_before_payment', [id, true, ACTOR])).toBe('changed');
    expect(await listed()).toContain(orderId);
    expect(await labelRun()).toContain(orderId);
    expect(await labelRun()).toEqual((await listed()).slice(0, (await labelRun()).length));
    expect(await count()).toBe(before + 1);
    expect(await claim()).toBe('claimed');
    // Its paperwork: the invoice unpaid, issued and due on Sydney days, the PO number with it.
    expect(await call('order_on_account', [orderId])).toMatchObject({
      organisation: 'One Rule School',
      status: 'sent',
      paid_on: null,
      invoice_number: expect.stringMatching(/^INV-\d{4}$/),
      issued_on: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      due_on: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
    // The index of the To pack list is the rule's own: the planner can read the list along it.
    const { rows } = await db.admin.query<{ indexdef: string }>(`select indexdef from pg_indexes where indexname = 'orders_to_pack_idx'`);
    expect(rows[0]?.indexdef).toContain('order_to_pack(status, payment_status, ship_before_payment)');
  });

  it('the list computes overdue from the due date, Sydney time, and pages by cursor; a reminder is written to the order’s history', async () => {
    await setStock(BOOK, 100);
    const late = (await save(draft({ organisation: 'Overdue Parish', lines: [{ product_id: BOOK, quantity: 1 }] }))).invoice_id;
    await sendAndEmail(late);
    await db.admin.exec(`update public.invoices set sent_at = now() - interval '40 days', due_on = ((now() - interval '40 days') at time zone 'Australia/Sydney')::date + 30 where id = '${late}'`);
    const overdue = await asStaff<{ rows: Array<{ id: string; overdue: boolean }>; next: string | null }>(`public.admin_list_invoices('overdue')`);
    expect(overdue.rows.map((r) => r.id)).toEqual([late]);
    expect(overdue.rows[0]?.overdue).toBe(true);
    const open = await asStaff<{ rows: Array<{ id: string; overdue: boolean }> }>(`public.admin_list_invoices('open', 'overdue parish')`);
    expect(open.rows).toMatchObject([{ id: late, overdue: true }]);
    expect(await call('invoice_reminded', [late, ACTOR])).toBe('reminded');
    const history = await asStaff<{ history: Array<{ action: string; detail: string }> }>(`public.admin_get_order($1)`, [(await invoice(late)).order_id]);
    expect(history.history.map((h) => h.action)).toEqual(['invoice_sent', 'invoice_emailed', 'invoice_reminded']);
    expect(history.history[2]?.detail).toContain('overdue since');

    const first = await asStaff<{ rows: Array<{ id: string }>; next: string | null }>(`public.admin_list_invoices('all', '', null, 2)`);
    expect(first.rows).toHaveLength(2);
    const second = await asStaff<{ rows: Array<{ id: string }> }>(`public.admin_list_invoices('all', '', $1, 2)`, [first.next]);
    expect(second.rows.map((r) => r.id)).not.toContain(first.rows[0]?.id);
    await expect(asStaff(`public.admin_list_invoices('all', '', 'forged', 2)`)).rejects.toThrow(/page link/);
  });

  it('a credit note is a refund of the paid invoice’s order: never more than was paid, and counted in Sales', async () => {
    await setStock(BOOK, 100);
    const id = (await save(draft({ lines: [{ product_id: BOOK, quantity: 10 }] }))).invoice_id;
    await sendAndEmail(id);
    await call('invoice_mark_paid', [`in_local_${id}`, 18000, 'aud', 'Stripe']);
    expect(await call('invoice_begin_credit', [id, 181, 'Too much', ACTOR])).toMatchObject({ outcome: 'too_much', remaining: 180 });
    const reserved = await call<{ outcome: string; refund_id: string }>('invoice_begin_credit', [id, 30, 'Two damaged copies', ACTOR]);
    expect(reserved.outcome).toBe('reserved');
    expect(await call('settle_part_refund', [reserved.refund_id, 'cn_1', null])).toMatchObject({ outcome: 'succeeded', remaining: 150 });
    const detail = await asStaff<{ credited: number; credit_notes: Array<{ amount: number; provider_credit_note_id: string }> }>(`public.admin_get_invoice($1)`, [id]);
    expect(detail).toMatchObject({ credited: 30, credit_notes: [{ amount: 30, provider_credit_note_id: 'cn_1' }] });
    const today = (await db.admin.query<{ d: string }>(`select to_char((now() at time zone 'Australia/Sydney')::date, 'YYYY-MM-DD') as d`)).rows[0]!.d;
    const sales = await db.request('authenticated', { sub: STAFF }, `select public.admin_sales($1, $1, 'day') as result`, { params: [today], commit: true });
    expect((sales.rows[0]!.result as { totals: { refunds: number } }).totals.refunds).toBeGreaterThanOrEqual(30);
    const csv = await asStaff<{ orders: Array<{ organisation: string | null; po_number: string | null; invoice_number: string | null }> }>(`public.admin_sales_orders($1, $1)`, [today]);
    expect(csv.orders.find((o) => o.organisation)).toMatchObject({ organisation: "St Mary's Primary", po_number: 'PO-7781', invoice_number: expect.stringMatching(/^INV-\d{4}$/) });
  });

  it('a quote request is stored for a book the shop sells, becomes a draft once, and a card order still keeps the cart’s 99 copies', async () => {
    const quote = await call<{ outcome: string; id: string }>('quote_request_create', [
      JSON.stringify({
        organisation: 'St Pius Parish',
        contact_name: 'Fr Tom',
        email: 'tom@example.com',
        phone: '02 1234',
        address: { line1: '2 Church St', country: 'AU' },
        lines: [{ product_id: BOOK, quantity: 40 }],
      }),
    ]);
    expect(quote.outcome).toBe('saved');
    expect(
      await call('quote_request_create', [JSON.stringify({ organisation: 'X', contact_name: 'Y', email: 'y@example.com', phone: '1', address: {}, lines: [{ product_id: 'nope', quantity: 1 }] })]),
    ).toEqual({ outcome: 'unknown_book', product_id: 'nope' });
    const listed = await asStaff<{ rows: Array<{ id: string; lines: Array<{ title: string; quantity: number }> }> }>(`public.admin_list_quotes('new')`);
    expect(listed.rows.find((r) => r.id === quote.id)?.lines).toEqual([{ product_id: BOOK, title: 'Class Book', quantity: 40 }]);
    expect((await save(draft(), null, quote.id)).outcome).toBe('saved');
    expect(await save(draft(), null, quote.id)).toEqual({ outcome: 'quote_taken' });
    expect(await call('quote_request_decline', [quote.id, ACTOR])).toBe('not_new');

    await expect(
      call('create_order', [
        JSON.stringify({ customer_email: 'x@example.com', subtotal_amount: 2000, shipping_amount: 0, total_amount: 2000, shipping_address: {}, shipping_method: {}, payment_provider: 'stripe' }),
        JSON.stringify([{ product_id: BOOK, title: 'Class Book', quantity: 100, price_at_time: 20 }]),
      ]),
    ).rejects.toThrow(/99 copies/);
  });
});
