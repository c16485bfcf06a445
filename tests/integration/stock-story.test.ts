/**
 * Stock with its story, on the embedded backend and on PostgreSQL 17: a delivery added (+N) with its reason, the
 * history of a product (the publisher's changes, each sale and each cancellation with its order), the low-stock
 * crossing opened once per crossing (two sales below the level, concurrent ones too, open one) and re-armed when
 * the stock is back, and the waiting list of a book that cannot be bought: one request per address and book in any
 * letter case, answered send / wait / subscribed / for_sale / unknown, confirmed from the inbox, an unconfirmed one
 * gone after 7 days, and the confirmed drawn into one availability mailing once the book is for sale again, by one
 * caller only. Staff only for the history and the counts.
 */
import { describe, expect, it } from 'vitest';
import { DATABASES, shopperAndStaffSql, isPermissionError, useTestDatabase } from '../helpers/test-databases';

const STAFF = '00000000-0000-4000-8000-0000000007a1';
const SHOPPER = '00000000-0000-4000-8000-0000000007b0';
const BOOK = 'story-book';
const ORDERS = ['00000000-0000-4000-8000-000000000701', '00000000-0000-4000-8000-000000000702', '00000000-0000-4000-8000-000000000703', '00000000-0000-4000-8000-000000000704'];

const FIXTURES = `
  ${shopperAndStaffSql({ id: SHOPPER, email: 'reader@example.com' }, { id: STAFF, email: 'counter@example.com' })}
  insert into public.products (id, title, price, stock, low_stock_level) values ('${BOOK}', 'Story Book', 20, 12, 10), ('sold-out-book', 'Sold Out', 20, 0, 10),
    ('quiet-book', 'Quiet Book', 20, 0, 10), ('expiring-book', 'Expiring Book', 20, 0, 10);
  insert into public.products (id, title, price, stock, low_stock_level, for_sale) values ('retired-book', 'Retired Book', 20, 5, 10, false);
  ${ORDERS.map(
    (id, i) => `insert into public.orders (id, customer_email, subtotal_amount, shipping_amount, total_amount, shipping_address, shipping_method, checkout_session_id)
      values ('${id}', 'buyer${i}@example.com', 40, 15, 55, '{}', '{}', 'cs_story_${i}');
    insert into public.order_items (order_id, product_id, title, quantity, price_at_time) values ('${id}', '${BOOK}', 'Story Book', 2, 20);`,
  ).join('\n')}
`;

describe.each(DATABASES)('stock with its story on the $label', ({ open }) => {
  const db = useTestDatabase(open, FIXTURES);
  const as =
    (sub: string) =>
    async <T>(sql: string): Promise<T> =>
      (await db.request('authenticated', { sub }, `select ${sql} as r`, { commit: true })).rows[0]?.r as T;
  const asStaff = as(STAFF);
  const asService = async <T>(sql: string): Promise<T> => (await db.request('service_role', {}, `select ${sql} as r`, { commit: true })).rows[0]?.r as T;
  const stock = async () => (await db.admin.query<{ stock: number }>(`select stock from public.products where id = '${BOOK}'`)).rows[0]!.stock;
  const openCrossings = async () => (await db.admin.query<{ n: number }>(`select count(*)::int as n from public.low_stock_alerts where product_id = '${BOOK}' and rearmed_at is null`)).rows[0]!.n;
  const allCrossings = async () => (await db.admin.query<{ n: number }>(`select count(*)::int as n from public.low_stock_alerts where product_id = '${BOOK}'`)).rows[0]!.n;

  it('a delivery adds N copies with its reason; N must be a whole number of at least 1, and a reason is needed', async () => {
    expect(await asStaff(`public.admin_receive_stock('${BOOK}', 3, '  Reprint delivered ')`)).toBe(15);
    expect(await stock()).toBe(15);
    await expect(asStaff(`public.admin_receive_stock('${BOOK}', 0, 'none')`)).rejects.toThrow('Copies received must be a whole number from 1 to 100000.');
    await expect(asStaff(`public.admin_receive_stock('${BOOK}', -4, 'none')`)).rejects.toThrow('Copies received must be a whole number from 1 to 100000.');
    await expect(asStaff(`public.admin_receive_stock('${BOOK}', 2, '  ')`)).rejects.toThrow('Give a reason for the change');
    await expect(asStaff(`public.admin_receive_stock('${BOOK}', 100000, 'too many')`)).rejects.toThrow('Stock can be at most 100000.');
    await expect(asStaff(`public.admin_receive_stock('no-such-book', 2, 'x')`)).rejects.toMatchObject({ code: 'P0002' });
    expect(await stock()).toBe(15);
  });

  it('a shopper, a visitor and the server functions cannot add stock or read the history and the counts', async () => {
    for (const sql of [`public.admin_receive_stock('${BOOK}', 5, 'x')`, `public.admin_stock_history('${BOOK}')`, 'public.admin_list_stock()']) {
      await expect(as(SHOPPER)(sql)).rejects.toSatisfy(isPermissionError);
      await expect(db.request('anon', {}, `select ${sql}`)).rejects.toSatisfy(isPermissionError);
      await expect(db.request('service_role', {}, `select ${sql}`)).rejects.toSatisfy(isPermissionError);
    }
    // Nor write the waiting list themselves: only the server function does, as the service role.
    await expect(db.request('anon', {}, `insert into public.back_in_stock_requests (product_id, email) values ('sold-out-book', 'x@example.com')`)).rejects.toSatisfy(isPermissionError);
    expect(Number(await as(SHOPPER)(`(select count(*) from public.stock_changes)`))).toBe(0);
  });

  it('a sale writes its history row naming the order and opens one crossing below the level; a second sale below it opens none', async () => {
    expect(await asService(`public.fulfil_order('${ORDERS[0]}')`)).toBe('fulfilled'); // 15 → 13
    expect(await openCrossings()).toBe(0);
    expect(await asService(`public.fulfil_order('${ORDERS[1]}')`)).toBe('fulfilled'); // 13 → 11
    expect(await asService(`public.fulfil_order('${ORDERS[2]}')`)).toBe('fulfilled'); // 11 → 9: below 10
    expect(await asService(`public.fulfil_order('${ORDERS[2]}')`)).toBe('already_fulfilled'); // a retried webhook
    expect(await asService(`public.fulfil_order('${ORDERS[3]}')`)).toBe('fulfilled'); // 9 → 7: still below
    expect(await stock()).toBe(7);
    expect(await allCrossings()).toBe(1);

    const { changes: history } = await asStaff<{ changes: Array<Record<string, unknown>> }>(`public.admin_stock_history('${BOOK}')`);
    expect(history.map(({ previous_stock, new_stock, reason, actor, order_id }) => ({ previous_stock, new_stock, reason, actor, order_id }))).toEqual([
      { previous_stock: 9, new_stock: 7, reason: 'Sold', actor: 'buyer3@example.com', order_id: ORDERS[3] },
      { previous_stock: 11, new_stock: 9, reason: 'Sold', actor: 'buyer2@example.com', order_id: ORDERS[2] },
      { previous_stock: 13, new_stock: 11, reason: 'Sold', actor: 'buyer1@example.com', order_id: ORDERS[1] },
      { previous_stock: 15, new_stock: 13, reason: 'Sold', actor: 'buyer0@example.com', order_id: ORDERS[0] },
      { previous_stock: 12, new_stock: 15, reason: 'Reprint delivered', actor: 'counter@example.com', order_id: null },
    ]);

    // The email is claimed once: the crossing belongs to the sale that made it, and a second claim finds nothing.
    const claimed = await asService<Array<Record<string, unknown>>>(`public.claim_low_stock_alerts('${ORDERS[2]}')`);
    expect(claimed).toEqual([{ id: expect.anything(), product_id: BOOK, title: 'Story Book', level: 10, stock: 9 }]);
    expect(await asService(`public.claim_low_stock_alerts('${ORDERS[2]}')`)).toEqual([]);
    expect(await asService(`public.claim_low_stock_alerts('${ORDERS[3]}')`)).toEqual([]);
    // Given back after a failed email, it is claimed again by the next attempt.
    await asService(`public.release_low_stock_alert(${Number(claimed[0]!.id)})`);
    expect(await asService(`public.claim_low_stock_alerts('${ORDERS[2]}')`)).toHaveLength(1);
  });

  it('a cancellation puts the copies back in the history, by who cancelled it; stock back at the level re-arms the alert', async () => {
    expect(await asService(`public.cancel_paid_order('${ORDERS[3]}', 'counter@example.com')`)).toBe('cancelled'); // 7 → 9
    const [latest] = (await asStaff<{ changes: Array<Record<string, unknown>> }>(`public.admin_stock_history('${BOOK}')`)).changes;
    expect(latest).toMatchObject({ previous_stock: 7, new_stock: 9, reason: 'Order cancelled, copies put back', actor: 'counter@example.com', order_id: ORDERS[3] });
    expect(await openCrossings()).toBe(1); // 9 is still below 10

    expect(await asStaff(`public.admin_set_stock('${BOOK}', 10, 'Counted')`)).toBe(10);
    expect(await openCrossings()).toBe(0);
    expect(await allCrossings()).toBe(1);
  });

  it('the catalog sync sets each book’s level; a book without one keeps it', async () => {
    expect(await asService(`public.sync_low_stock_levels('[{"id": "${BOOK}", "low_stock_level": 4}, {"id": "sold-out-book"}]')`)).toBe(1);
    expect((await db.admin.query<{ id: string; low_stock_level: number }>(`select id, low_stock_level from public.products where id in ('${BOOK}', 'sold-out-book') order by id`)).rows).toEqual([
      { id: 'sold-out-book', low_stock_level: 10 },
      { id: BOOK, low_stock_level: 4 },
    ]);
  });

  type Request = { action: string; id?: string; sent_at?: string };
  const request = (productId: string, email: string) => asService<Request>(`public.back_in_stock_request('${productId}', '${email}')`);
  const requests = async (productId: string) =>
    (
      await db.admin.query<{ id: string; email: string; confirmed: boolean; drawn: boolean; mailing_id: string | null }>(
        `select id, email, confirmed_at is not null as confirmed, drawn_at is not null as drawn, mailing_id from public.back_in_stock_requests where product_id = '${productId}' order by lower(email)`,
      )
    ).rows;
  const waiting = async (productId: string) => (await asStaff<Array<{ id: string; waiting: number }>>('public.admin_list_stock()')).find((p) => p.id === productId)?.waiting;
  const drawMailing = (productId: string) => asService<{ id: string; recipients: number } | null>(`public.availability_create_mailing('${productId}', 'Back', 'It is back.', 'counter@example.com')`);

  it('a request for a book that cannot be bought: send, then wait within the day; confirmed, it is subscribed; a book for sale or unknown has no list', async () => {
    const first = await request('sold-out-book', 'Ann@Example.com');
    expect(first).toEqual({ action: 'send', id: expect.any(String), sent_at: expect.any(String) });
    // Asking again, in any letter case, within a day: nothing more is sent.
    expect(await request('sold-out-book', ' ann@example.COM ')).toEqual({ action: 'wait', id: first.id });
    expect(await requests('sold-out-book')).toEqual([{ id: first.id, email: 'Ann@Example.com', confirmed: false, drawn: false, mailing_id: null }]);

    // A day on, still unconfirmed: a new confirmation may be sent, for the same request.
    await db.admin.exec(`update public.back_in_stock_requests set confirmation_sent_at = now() - interval '25 hours' where id = '${first.id}'`);
    const resent = await request('sold-out-book', 'ann@example.com');
    expect(resent).toEqual({ action: 'send', id: first.id, sent_at: expect.any(String) });
    expect(Date.parse(resent.sent_at!)).toBeGreaterThan(Date.parse(first.sent_at!));

    expect(await asService(`public.back_in_stock_confirm('${first.id}', now())`)).toBe('confirmed');
    expect(await asService(`public.back_in_stock_confirm('${first.id}', now())`)).toBe('already');
    expect(await asService(`public.back_in_stock_confirm('00000000-0000-4000-8000-000000000000', now())`)).toBe('unknown');
    // Confirmed and asked again: the owner is told they are on the list, once a day at most.
    expect(await request('sold-out-book', 'ANN@example.com')).toEqual({ action: 'notice', id: first.id, sent_at: expect.any(String) });
    expect(await request('sold-out-book', 'ann@example.com')).toEqual({ action: 'wait', id: first.id });

    // Only a book that cannot be bought has a list: in stock and for sale, no; taken out of the catalog, yes.
    expect(await request(BOOK, 'ann@example.com')).toEqual({ action: 'for_sale' });
    expect(await request('no-such-book', 'ann@example.com')).toEqual({ action: 'unknown' });
    expect(await request('retired-book', 'ann@example.com')).toMatchObject({ action: 'send' });
    expect((await requests(BOOK)).length + (await requests('no-such-book')).length).toBe(0);

    // "This wasn't me": the request is gone.
    const stranger = await request('sold-out-book', 'cy@example.com');
    expect(await asService(`public.back_in_stock_decline('${stranger.id}')`)).toBe('declined');
    expect(await asService(`public.back_in_stock_decline('${stranger.id}')`)).toBe('unknown');
    expect(await asService(`public.back_in_stock_confirm('${stranger.id}', now())`)).toBe('unknown');
    expect((await requests('sold-out-book')).map((r) => r.email)).toEqual(['Ann@Example.com']);
  });

  it('the list keeps one row per address and book, each asked or confirmed; only the server functions write it', async () => {
    const insert = (values: string, role: 'service_role' | 'anon' = 'service_role') =>
      db.request(role, {}, `insert into public.back_in_stock_requests (product_id, email, confirmation_sent_at, confirmed_at) values ${values}`);
    await expect(insert(`('sold-out-book', 'ann@example.COM', now(), null)`)).rejects.toMatchObject({ code: '23505' });
    await expect(insert(`('no-such-book', 'x@example.com', now(), null)`)).rejects.toMatchObject({ code: '23503' });
    // Neither asked nor confirmed: no such request.
    await expect(insert(`('sold-out-book', 'x@example.com', null, null)`)).rejects.toMatchObject({ code: '23514' });
    await expect(insert(`('sold-out-book', 'x@example.com', now(), null)`, 'anon')).rejects.toSatisfy(isPermissionError);
    for (const sql of [
      `public.back_in_stock_request('sold-out-book', 'x@example.com')`,
      `public.back_in_stock_confirm('00000000-0000-4000-8000-000000000000', now())`,
      `public.availability_create_mailing('sold-out-book', 'a', 'b', 'c')`,
      'public.expire_pending_sign_ups()',
    ]) {
      await expect(db.request('anon', {}, `select ${sql}`)).rejects.toSatisfy(isPermissionError);
      await expect(as(SHOPPER)(sql)).rejects.toSatisfy(isPermissionError);
    }
  });

  it('an unconfirmed request is gone 7 days after its email (at the next request); a confirmed one stays', async () => {
    const stale = await request('expiring-book', 'stale@example.com');
    const recent = await request('expiring-book', 'recent@example.com');
    const kept = await request('expiring-book', 'kept@example.com');
    expect(await asService(`public.back_in_stock_confirm('${kept.id}', now())`)).toBe('confirmed');
    await db.admin.exec(`
      update public.back_in_stock_requests set confirmation_sent_at = now() - interval '7 days 1 minute' where id in ('${stale.id}', '${kept.id}');
      update public.back_in_stock_requests set confirmation_sent_at = now() - interval '6 days' where id = '${recent.id}';`);
    // Any request sweeps: here, someone else's for another book.
    expect(await request('quiet-book', 'passer-by@example.com')).toMatchObject({ action: 'send' });
    expect((await requests('expiring-book')).map((r) => r.email)).toEqual(['kept@example.com', 'recent@example.com']);
    // Asking again after it expired starts afresh.
    const again = await request('expiring-book', 'stale@example.com');
    expect(again).toMatchObject({ action: 'send' });
    expect(again.id).not.toBe(stale.id);
    // The link of the expired request finds nothing.
    expect(await asService(`public.back_in_stock_confirm('${stale.id}', now())`)).toBe('unknown');
  });

  it('the confirmed are drawn into one mailing once the book is for sale again, by one of two callers at once; nobody waiting or still sold out draws none', async () => {
    const bo = await request('sold-out-book', 'bo@example.com'); // never confirmed
    const dee = await request('sold-out-book', 'Dee@Example.com');
    expect(await asService(`public.back_in_stock_confirm('${dee.id}', now())`)).toBe('confirmed');
    expect(await waiting('sold-out-book')).toBe(2); // Ann and Dee; not Bo
    expect((await asStaff<Array<Record<string, unknown>>>('public.admin_list_stock()')).find((p) => p.id === 'sold-out-book')).toMatchObject({ stock: 0, low_stock_level: 10 });

    // Still sold out, or taken out of the catalog: nothing is drawn.
    expect(await drawMailing('sold-out-book')).toBeNull();
    expect(await drawMailing('retired-book')).toBeNull();
    // For sale with only an unconfirmed request (quiet-book's passer-by), or nobody at all: none either.
    expect(await asStaff(`public.admin_receive_stock('quiet-book', 2, 'Delivery')`)).toBe(2);
    expect(await drawMailing('quiet-book')).toBeNull();
    expect(await drawMailing(BOOK)).toBeNull();

    expect(await asStaff(`public.admin_receive_stock('sold-out-book', 5, 'Delivery')`)).toBe(5);
    const draws = db.concurrent ? await Promise.all([drawMailing('sold-out-book'), drawMailing('sold-out-book')]) : [await drawMailing('sold-out-book'), await drawMailing('sold-out-book')];
    const made = draws.filter((d) => d !== null);
    expect(made).toEqual([{ id: expect.any(String), recipients: 2 }]);
    const mailing = made[0]!.id;
    expect(await drawMailing('sold-out-book')).toBeNull();

    const { rows: newsletters } = await db.admin.query<{ product_id: string; subject: string; created_by: string }>(
      `select product_id, subject, created_by from public.newsletters where product_id is not null`,
    );
    expect(newsletters).toEqual([{ product_id: 'sold-out-book', subject: 'Back', created_by: 'counter@example.com' }]);
    const { rows: deliveries } = await db.admin.query<{ email: string; request: string; status: string }>(
      `select email, back_in_stock_request_id as request, status from public.newsletter_deliveries where newsletter_id = '${mailing}' order by email`,
    );
    const ann = (await requests('sold-out-book')).find((r) => r.email === 'Ann@Example.com')!;
    expect(deliveries).toEqual([
      { email: 'ann@example.com', request: ann.id, status: 'pending' },
      { email: 'dee@example.com', request: dee.id, status: 'pending' },
    ]);
    expect(await requests('sold-out-book')).toEqual([
      { id: ann.id, email: 'Ann@Example.com', confirmed: true, drawn: true, mailing_id: mailing },
      { id: bo.id, email: 'bo@example.com', confirmed: false, drawn: false, mailing_id: null },
      { id: dee.id, email: 'Dee@Example.com', confirmed: true, drawn: true, mailing_id: mailing },
    ]);
    expect(await waiting('sold-out-book')).toBe(0);
    // Drawn: its link now says the email has gone; Bo, who never confirmed, is told the book is available now and
    // is queued for nothing.
    expect(await asService(`public.back_in_stock_confirm('${ann.id}', now())`)).toBe('sent');
    expect(await asService(`public.back_in_stock_confirm('${bo.id}', now() - interval '1 minute')`)).toBe('stale');
    expect(await asService(`public.back_in_stock_confirm('${bo.id}', now())`)).toBe('available');
    expect((await requests('sold-out-book')).map((r) => r.email)).toEqual(['Ann@Example.com', 'Dee@Example.com']);
    // A declined link no longer takes a drawn request back. Dee unsubscribes (from an earlier availability email) before the
    // batch goes: she is skipped; the batch sender sends to Ann alone.
    expect(await asService(`public.back_in_stock_decline('${ann.id}')`)).toBe('unknown');
    expect(await asService(`public.marketing_opt_out('dee@example.com', 'availability')`)).toBe('unsubscribed');
    const claim = await asService<{ batch: number; recipients: Array<{ email: string; request_id: string }> }>(`public.newsletter_claim_batch('${mailing}', 100)`);
    expect(claim.recipients.map((r) => [r.email, r.request_id])).toEqual([['ann@example.com', ann.id]]);
    const { rows: after } = await db.admin.query(`select email, status from public.newsletter_deliveries where newsletter_id = '${mailing}' order by email`);
    expect(after).toEqual([
      { email: 'ann@example.com', status: 'claimed' },
      { email: 'dee@example.com', status: 'skipped' },
    ]);

    // Sold out once more: Ann, emailed last time, waits again from the beginning.
    expect(await asStaff(`public.admin_set_stock('sold-out-book', 0, 'Sold out again')`)).toBe(0);
    const anew = await request('sold-out-book', 'ann@example.com');
    expect(anew).toMatchObject({ action: 'send' });
    expect(anew.id).not.toBe(ann.id);
    expect(await waiting('sold-out-book')).toBe(0);
  });
});
