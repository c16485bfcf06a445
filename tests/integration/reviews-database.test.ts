/**
 * Reviews in the database, on both databases: which orders are asked (once, at the right time, never an opted-out
 * address or a refunded or cancelled order), the buyer's review of each book (its limits, its edits kept in the
 * history, no change once published), moderation and the publisher's reply, and what anyone else may read: a
 * published review's public columns only.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, GOOGLE_IDENTITIES, type TestDatabase } from '../helpers/test-databases';

const STAFF = '00000000-0000-4000-8000-0000000005aa';
const BOOK = 'review-book';
const OTHER_BOOK = 'review-other-book';

describe.each(DATABASES)('reviews on the $label', ({ open }) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await open();
    await db.admin.exec(`
      insert into auth.users (id, email, email_confirmed_at) values ('${STAFF}', 'reviews-staff@example.com', now());
      insert into public.staff_members (email) values ('reviews-staff@example.com');
      ${GOOGLE_IDENTITIES};
      insert into public.products (id, title, price, stock) values ('${BOOK}', 'Review Book', 20, 50), ('${OTHER_BOOK}', 'Other Book', 15, 50);`);
  });
  afterAll(() => db.close());

  /** A paid order of one copy of BOOK; `extra` sets its shipping, delivery and refund columns. */
  async function order(extra: Record<string, string> = {}, email = `${randomUUID()}@example.com`): Promise<string> {
    const id = randomUUID();
    const columns = {
      payment_status: `'paid'`,
      status: `'completed'`,
      shipped_at: `now() - interval '6 days'`,
      tracking_number: `'33TST0000001'`,
      delivered_at: `now() - interval '4 days'`,
      ...extra,
    };
    await db.admin.exec(`
      insert into public.orders (id, customer_email, customer_name, subtotal_amount, shipping_amount, total_amount, shipping_address, shipping_method, paid_at, ${Object.keys(columns).join(', ')})
        values ('${id}', '${email}', 'Mary Anne Smith', 20, 0, 20, '{}', '{}', now() - interval '8 days', ${Object.values(columns).join(', ')});
      insert into public.order_items (order_id, product_id, title, quantity, price_at_time) values ('${id}', '${BOOK}', 'Review Book', 1, 20);`);
    return id;
  }

  const service = async (sql: string, params: unknown[] = []) => (await db.request('service_role', {}, sql, { params, commit: true })).rows[0]?.answer;
  const claim = async (delay = 3): Promise<Array<{ order_id: string; email: string; items: unknown[] }>> =>
    (await service('select public.claim_review_requests($1, 10, 500) as answer', [delay])) as Array<{ order_id: string; email: string; items: unknown[] }>;
  const claimedIds = async (delay = 3) => (await claim(delay)).map((r) => r.order_id);
  const markSent = (ids: string[]) => service('select public.review_requests_sent($1::uuid[]) as answer', [ids]);
  const submit = (orderId: string, fields: { rating?: number; title?: string; body?: string; name?: string; consent?: boolean; book?: string } = {}) =>
    service('select public.review_submit($1, $2, $3, $4, $5, $6, $7) as answer', [
      orderId,
      fields.book ?? BOOK,
      fields.rating ?? 5,
      fields.title ?? 'Lovely',
      fields.body ?? 'Read every night.',
      fields.name ?? 'Mary S.',
      fields.consent ?? true,
    ]);
  const reviewOf = async (orderId: string) => (await db.admin.query<Record<string, unknown>>(`select * from public.reviews where order_id = $1`, [orderId])).rows[0]!;
  const historyOf = async (reviewId: unknown) =>
    (await db.admin.query<{ action: string; title: string; note: string | null }>(`select action, title, note from public.review_history where review_id = $1 order by id`, [reviewId])).rows;

  it('asks a delivered order once its delay has passed, and an untracked one after shipping; nothing else', async () => {
    const due = await order();
    const early = await order({ delivered_at: `now() - interval '1 day'` });
    const old = await order({ delivered_at: `now() - interval '40 days'` });
    const untracked = await order({ status: `'shipped'`, shipped_at: `now() - interval '14 days'`, delivered_at: 'null' });
    const tracked = await order({ status: `'shipped'`, shipped_at: `now() - interval '14 days'`, delivered_at: 'null' });
    await db.admin.exec(`insert into public.shipment_tracking_events (order_id, event_key, status, occurred_at) values ('${tracked}', '${'b'.repeat(64)}', 'InTransit', now())`);
    const optedOut = await order({}, 'gone-reviews@example.com');
    await db.admin.exec(`insert into public.marketing_opt_outs (email, via) values ('gone-reviews@example.com', 'reminder')`);
    const refunded = await order({ payment_status: `'refund_due'`, refunded_at: 'now()', refund_id: `'re_1'` });
    const cancelled = await order({ status: `'cancelled'`, cancelled_at: 'now()' });

    const claimed = await claim();
    const ids = claimed.map((r) => r.order_id);
    expect(ids).toContain(due);
    expect(ids).toContain(untracked);
    for (const id of [early, old, tracked, optedOut, refunded, cancelled]) expect(ids).not.toContain(id);
    expect(claimed.find((r) => r.order_id === due)).toMatchObject({ items: [{ product_id: BOOK, title: 'Review Book' }] });
    // With no delay, the order delivered yesterday is due too.
    expect(await claimedIds(0)).toContain(early);

    // A claim in progress is not claimed again; a sent request never is.
    expect(await claimedIds()).not.toContain(due);
    expect(await markSent(ids)).toBe(ids.length);
    await db.admin.exec(`update public.review_requests set claimed_at = now() - interval '1 hour'`);
    expect(await claimedIds()).not.toContain(due);
  });

  it('a failed send gives its claim back; a claim left by a crash is taken again after ten minutes', async () => {
    const id = await order();
    expect(await claimedIds()).toContain(id);
    expect(await service('select public.release_review_requests($1::uuid[]) as answer', [[id]])).toBe(1);
    expect(await claimedIds()).toContain(id);
    await db.admin.exec(`update public.review_requests set claimed_at = now() - interval '11 minutes' where order_id = '${id}'`);
    expect(await claimedIds()).toContain(id);
  });

  it('takes a review of each book only for an order that was asked, keeps edits in the history, and refuses a change once published', async () => {
    const id = await order();
    expect(await submit(id)).toBe('not_asked');
    expect(await service('select public.review_form($1) as answer', [id])).toBeNull();
    await claim();
    await markSent([id]);
    expect(await service('select public.review_form($1) as answer', [id])).toMatchObject({ bought_by: 'Mary Anne Smith', books: [{ product_id: BOOK, review: null }] });
    expect(await submit(id, { book: OTHER_BOOK })).toBe('not_in_order');
    expect(await submit(id, { title: '  Lovely  ' })).toBe('saved');
    expect(await submit(id)).toBe('unchanged');
    expect(await submit(id, { rating: 4, title: 'Lovely, mostly' })).toBe('updated');
    const review = await reviewOf(id);
    expect(review).toMatchObject({ rating: 4, title: 'Lovely, mostly', status: 'new' });
    expect(await historyOf(review.id)).toEqual([
      { action: 'submitted', title: 'Lovely', note: null },
      { action: 'edited', title: 'Lovely', note: null },
    ]);
    expect(await service('select public.review_form($1) as answer', [id])).toMatchObject({ books: [{ review: { rating: 4, title: 'Lovely, mostly', status: 'new' } }] });

    expect(await service('select public.review_moderate($1, $2, null, $3) as answer', [review.id, 'publish', 'staff@example.com'])).toBe('published');
    expect(await service('select public.review_moderate($1, $2, null, $3) as answer', [review.id, 'publish', 'staff@example.com'])).toBe('already');
    expect(await submit(id, { title: 'Changed after' })).toBe('published');
    expect(await reviewOf(id)).toMatchObject({ title: 'Lovely, mostly', status: 'published' });
  });

  it('the database backs every limit of the form (23514), and wants the tick to publish', async () => {
    const id = await order();
    await claim();
    await markSent([id]);
    for (const fields of [{ rating: 6 }, { rating: 0 }, { title: 'x'.repeat(81) }, { title: '   ' }, { body: 'x'.repeat(2001) }, { name: 'x'.repeat(41) }, { name: 'Ann\u0007' }, { consent: false }]) {
      await expect(submit(id, fields), JSON.stringify(fields)).rejects.toMatchObject({ code: '23514' });
    }
    expect(await db.admin.query('select 1 from public.reviews where order_id = $1', [id])).toMatchObject({ rows: [] });
  });

  it('a rejection keeps its note; an edit makes it new again; a reply is kept; all in the history', async () => {
    const id = await order();
    await claim();
    await markSent([id]);
    await submit(id);
    const { id: reviewId } = await reviewOf(id);
    expect(await service('select public.review_moderate($1, $2, $3, $4) as answer', [reviewId, 'reject', 'Names a child in full', 'staff@example.com'])).toBe('rejected');
    expect(await reviewOf(id)).toMatchObject({ status: 'rejected', rejection_note: 'Names a child in full', published_at: null });
    expect(await submit(id, { body: 'Read every night by our girl.' })).toBe('updated');
    expect((await reviewOf(id)).status).toBe('new');
    expect(await service('select public.review_reply($1, $2, $3) as answer', [reviewId, ' Thank you! ', 'staff@example.com'])).toBe('replied');
    expect(await service('select public.review_reply($1, $2, $3) as answer', [reviewId, 'Thank you!', 'staff@example.com'])).toBe('unchanged');
    expect(await reviewOf(id)).toMatchObject({ reply: 'Thank you!' });
    expect((await historyOf(reviewId)).map((h) => [h.action, h.note])).toEqual([
      ['submitted', null],
      ['rejected', 'Names a child in full'],
      ['edited', 'Edited after it was rejected: new again'],
      ['replied', 'Thank you!'],
    ]);
    await expect(service('select public.review_moderate($1, $2, null, $3) as answer', [reviewId, 'delete', 'staff@example.com'])).rejects.toMatchObject({ code: '22023' });
    expect(await service('select public.review_moderate($1, $2, null, $3) as answer', [randomUUID(), 'publish', 'staff@example.com'])).toBe('unknown');
  });

  it('anyone reads a published review’s public columns, and nothing of a review not published', async () => {
    const shown = await order();
    const hidden = await order();
    await claim();
    await markSent([shown, hidden]);
    await submit(shown, { body: 'Shown to everyone.' });
    await submit(hidden, { body: 'Waiting for the publisher.' });
    await service('select public.review_moderate($1, $2, null, $3) as answer', [(await reviewOf(shown)).id, 'publish', 'staff@example.com']);
    for (const role of ['anon', 'authenticated'] as const) {
      const { rows } = await db.request(role, {}, `select body, display_name, rating, published_at, reply from public.reviews where product_id = '${BOOK}'`);
      const bodies = rows.map((r) => r.body);
      expect(bodies).toContain('Shown to everyone.');
      expect(bodies).not.toContain('Waiting for the publisher.');
      await expect(db.request(role, {}, 'select order_id from public.reviews')).rejects.toMatchObject({ code: '42501' });
    }
  });

  it('the back office lists new reviews first with their history, and counts asked, answered and published; staff only', async () => {
    const staff = { sub: STAFF };
    const list = (await db.request('authenticated', staff, 'select public.admin_list_reviews() as answer')).rows[0]!.answer as Array<{ status: string; history: unknown[]; order_number: string }>;
    const firstNotNew = list.findIndex((r) => r.status !== 'new');
    expect(firstNotNew).toBeGreaterThan(0);
    expect(list.slice(firstNotNew).every((r) => r.status !== 'new')).toBe(true);
    expect(list[0]!.history.length).toBeGreaterThan(0);
    expect(list[0]!.order_number).toMatch(/^\d+$/);
    const counts = (await db.request('authenticated', staff, 'select public.admin_review_counts() as answer')).rows[0]!.answer as Record<string, number>;
    const sent = (await db.admin.query<{ n: number }>('select count(*)::int as n from public.review_requests where sent_at is not null')).rows[0]!.n;
    const published = (await db.admin.query<{ n: number; average: string }>(`select count(*)::int as n, round(avg(rating), 1)::text as average from public.reviews where status = 'published'`))
      .rows[0]!;
    expect(counts).toMatchObject({ asked: sent, published: published.n });
    expect(counts.average).toBe(Number(published.average));
    expect(counts.answered).toBeGreaterThan(0);
    await expect(db.request('authenticated', { sub: randomUUID() }, 'select public.admin_list_reviews()')).rejects.toMatchObject({ code: '42501' });
  });
});
