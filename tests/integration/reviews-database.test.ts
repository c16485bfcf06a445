/**
 * Reviews in the database, on both databases: which orders are asked (once, at the right time, never an opted-out
 * address, a refunded or cancelled order, or one whose every book was refunded), the buyer's review of each book (its
 * limits, its edits kept in the history, a save from a form older than the review refused, no change once published,
 * rejected or unpublished), moderation (publish,
 * reject, unpublish) and the publisher's reply, and what anyone else may read: a published review's public
 * columns only.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DATABASES, staffUserSql, useTestDatabase } from '../helpers/test-databases';

const STAFF = '00000000-0000-4000-8000-0000000005aa';
const BOOK = 'review-book';
const OTHER_BOOK = 'review-other-book';

describe.each(DATABASES)('reviews on the $label', ({ open }) => {
  const db = useTestDatabase(
    open,
    `${staffUserSql(STAFF, 'reviews-staff@example.com')}
      insert into public.products (id, title, price, stock) values ('${BOOK}', 'Review Book', 20, 50), ('${OTHER_BOOK}', 'Other Book', 15, 50);`,
  );

  /** A paid order of one copy of BOOK ($20, no postage); `extra` sets its amounts, shipping, delivery and refund columns. */
  async function order(extra: Record<string, string> = {}, email = `${randomUUID()}@example.com`): Promise<string> {
    const id = randomUUID();
    const columns = {
      subtotal_amount: '20',
      shipping_amount: '0',
      total_amount: '20',
      payment_status: `'paid'`,
      status: `'completed'`,
      shipped_at: `now() - interval '6 days'`,
      tracking_number: `'33TST0000001'`,
      delivered_at: `now() - interval '4 days'`,
      ...extra,
    };
    await db.admin.exec(`
      insert into public.orders (id, customer_email, customer_name, shipping_address, shipping_method, paid_at, ${Object.keys(columns).join(', ')})
        values ('${id}', '${email}', 'Mary Anne Smith', '{}', '{}', now() - interval '8 days', ${Object.values(columns).join(', ')});
      insert into public.order_items (order_id, product_id, title, quantity, price_at_time) values ('${id}', '${BOOK}', 'Review Book', 1, 20);`);
    return id;
  }

  const service = async (sql: string, params: unknown[] = []) => (await db.request('service_role', {}, sql, { params, commit: true })).rows[0]?.answer;
  const claim = async (delay = 3): Promise<Array<{ order_id: string; email: string; items: unknown[] }>> =>
    (await service('select public.claim_review_requests($1, 10, 500) as answer', [delay])) as Array<{ order_id: string; email: string; items: unknown[] }>;
  const claimedIds = async (delay = 3) => (await claim(delay)).map((r) => r.order_id);
  const markSent = (ids: string[]) => service('select public.review_requests_sent($1::uuid[]) as answer', [ids]);
  type Fields = { rating?: number; title?: string; body?: string; name?: string; consent?: boolean; book?: string; version?: number };
  /** A save's whole answer; `version` is the one its form loaded: unless given, the review's as it stands (a form just opened). */
  const save = async (orderId: string, fields: Fields = {}) => {
    const book = fields.book ?? BOOK;
    const current = await db.admin.query<{ version: number }>('select version from public.reviews where order_id = $1 and product_id = $2', [orderId, book]);
    return (await service('select public.review_submit($1, $2, $3, $4, $5, $6, $7, $8) as answer', [
      orderId,
      book,
      fields.rating ?? 5,
      fields.title ?? 'Lovely',
      fields.body ?? 'Read every night.',
      fields.name ?? 'Mary S.',
      fields.consent ?? true,
      fields.version ?? current.rows[0]?.version ?? 0,
    ])) as { outcome: string; version?: number };
  };
  const submit = async (orderId: string, fields: Fields = {}) => (await save(orderId, fields)).outcome;
  const reviewOf = async (orderId: string) => (await db.admin.query<Record<string, unknown>>(`select * from public.reviews where order_id = $1`, [orderId])).rows[0]!;
  const historyOf = async (reviewId: unknown) =>
    (await db.admin.query<{ action: string; title: string; note: string | null }>(`select action, title, note from public.review_history where review_id = $1 order by id`, [reviewId])).rows;

  /** An order that was sent its review request. */
  const askedOrder = async () => {
    const id = await order();
    await claim();
    await markSent([id]);
    return id;
  };
  /** An asked order with the buyer's review of BOOK: the order's id and the review's. */
  const reviewedOrder = async () => {
    const id = await askedOrder();
    await submit(id);
    return { id, reviewId: (await reviewOf(id)).id };
  };
  const moderate = (reviewId: unknown, action: string, note: string | null = null) => service('select public.review_moderate($1, $2, $3, $4) as answer', [reviewId, action, note, 'staff@example.com']);

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

  it('asks an order refunded in part unless every book on it was refunded', async () => {
    // Two copies at $20 and $10 postage: $50. Refunds are amounts; the books cost $40 of it.
    const twoCopies = { subtotal_amount: '40', shipping_amount: '10', total_amount: '50' };
    const refundOf = (orderId: string, amount: number) =>
      db.admin.exec(`insert into public.order_refunds (order_id, amount, reason, status, actor, settled_at)
                       values ('${orderId}', ${amount}, 'Part refund', 'succeeded', 'staff@example.com', now())`);
    const postageOnly = await order(twoCopies);
    await refundOf(postageOnly, 10);
    const oneCopy = await order(twoCopies);
    await refundOf(oneCopy, 20);
    const everyBook = await order(twoCopies);
    await refundOf(everyBook, 25);
    await refundOf(everyBook, 15);
    // A code took the books' whole price: nothing of them was paid, so nothing of them was refunded.
    const [code] = (await db.admin.query<{ id: string }>(`insert into public.promotion_codes (code, kind, amount, created_by) values ('FREEBOOKS', 'percent', 100, 'staff@example.com') returning id`))
      .rows;
    const freeBooks = await order({ subtotal_amount: '40', shipping_amount: '10', total_amount: '10', discount_amount: '40', promotion_code: `'FREEBOOKS'`, promotion_code_id: `'${code!.id}'` });
    await refundOf(freeBooks, 5);
    const ids = await claimedIds();
    expect(ids).toContain(postageOnly);
    expect(ids).toContain(oneCopy);
    expect(ids).not.toContain(everyBook);
    expect((await db.admin.query<{ payment_status: string }>('select payment_status from public.orders where id = $1', [everyBook])).rows[0]!.payment_status).toBe('paid');
    expect(ids).toContain(freeBooks);
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

    expect(await moderate(review.id, 'publish')).toBe('published');
    expect(await moderate(review.id, 'publish')).toBe('already');
    expect(await submit(id, { title: 'Changed after' })).toBe('published');
    expect(await reviewOf(id)).toMatchObject({ title: 'Lovely, mostly', status: 'published' });
  });

  it('a save from a form loaded before another window saved is refused and changes nothing; the newer words stay', async () => {
    const id = await askedOrder();
    // The link open in two windows, neither with a review yet: the first to save wins, the second is told.
    expect(await save(id, { title: 'First window', version: 0 })).toEqual({ outcome: 'saved', version: 1 });
    expect(await save(id, { title: 'Second window', version: 0 })).toEqual({ outcome: 'changed_elsewhere', version: 1 });
    expect(await save(id, { title: 'First, edited', version: 1 })).toEqual({ outcome: 'updated', version: 2 });
    expect(await submit(id, { title: 'Second, still from before', version: 1 })).toBe('changed_elsewhere');
    expect(await reviewOf(id)).toMatchObject({ title: 'First, edited', version: 2 });
    // Reloaded, the second window saves over what it now shows.
    expect(await save(id, { title: 'Second, reloaded', version: 2 })).toEqual({ outcome: 'updated', version: 3 });
    expect((await historyOf((await reviewOf(id)).id)).map((h) => [h.action, h.title])).toEqual([
      ['submitted', 'First window'],
      ['edited', 'First window'],
      ['edited', 'First, edited'],
    ]);
    // The publisher's reply is not a save of the buyer's: the form loaded before it still saves.
    await service('select public.review_reply($1, $2, $3) as answer', [(await reviewOf(id)).id, 'Thank you!', 'staff@example.com']);
    expect(await submit(id, { title: 'After the reply', version: 3 })).toBe('updated');
    await expect(submit(id, { version: -1 })).rejects.toMatchObject({ code: '22023' });
  });

  it('two saves at once from forms loaded alike: one is kept, the other refused', async () => {
    const id = await askedOrder();
    const [a, b] = [() => save(id, { title: 'Window A', version: 0 }), () => save(id, { title: 'Window B', version: 0 })];
    // PGlite serves one connection at a time: there the two saves run one after the other.
    const answers = db.concurrent ? await Promise.all([a(), b()]) : [await a(), await b()];
    expect(answers.map((a) => a.outcome).sort()).toEqual(['changed_elsewhere', 'saved']);
    expect((await reviewOf(id)).title).toBe(answers[0]!.outcome === 'saved' ? 'Window A' : 'Window B');
  });

  it('the database backs every limit of the form (23514), and wants the tick to publish', async () => {
    const id = await askedOrder();
    for (const fields of [{ rating: 6 }, { rating: 0 }, { title: 'x'.repeat(81) }, { title: '   ' }, { body: 'x'.repeat(2001) }, { name: 'x'.repeat(41) }, { name: 'Ann\u0007' }, { consent: false }]) {
      await expect(submit(id, fields), JSON.stringify(fields)).rejects.toMatchObject({ code: '23514' });
    }
    expect(await db.admin.query('select 1 from public.reviews where order_id = $1', [id])).toMatchObject({ rows: [] });
  });

  it('a rejection keeps its note and is final for the buyer; a reply is kept; all in the history', async () => {
    const { id, reviewId } = await reviewedOrder();
    // Only a published review can be unpublished.
    expect(await moderate(reviewId, 'unpublish')).toBe('not_published');
    expect(await moderate(reviewId, 'reject', 'Names a child in full')).toBe('rejected');
    expect(await reviewOf(id)).toMatchObject({ status: 'rejected', rejection_note: 'Names a child in full', published_at: null });
    expect(await moderate(reviewId, 'reject')).toBe('already');
    // The link no longer changes it, and its form says it was not published.
    expect(await submit(id, { body: 'Read every night by our girl.' })).toBe('not_published');
    expect(await reviewOf(id)).toMatchObject({ status: 'rejected', body: 'Read every night.' });
    expect(await service('select public.review_form($1) as answer', [id])).toMatchObject({ books: [{ review: { status: 'rejected' } }] });
    expect(await service('select public.review_reply($1, $2, $3) as answer', [reviewId, ' Thank you! ', 'staff@example.com'])).toBe('replied');
    expect(await service('select public.review_reply($1, $2, $3) as answer', [reviewId, 'Thank you!', 'staff@example.com'])).toBe('unchanged');
    expect(await reviewOf(id)).toMatchObject({ reply: 'Thank you!' });
    expect((await historyOf(reviewId)).map((h) => [h.action, h.note])).toEqual([
      ['submitted', null],
      ['rejected', 'Names a child in full'],
      ['replied', 'Thank you!'],
    ]);
    await expect(moderate(reviewId, 'delete')).rejects.toMatchObject({ code: '22023' });
    expect(await moderate(randomUUID(), 'publish')).toBe('unknown');
  });

  it('a published review is unpublished, never rejected: off the site, final for the buyer, kept with its history; and may be published again', async () => {
    const { id, reviewId } = await reviewedOrder();
    const shownToAnyone = async () => (await db.request('anon', {}, `select id from public.reviews where id = '${reviewId}'`)).rows.length;
    expect(await moderate(reviewId, 'publish')).toBe('published');
    expect(await shownToAnyone()).toBe(1);
    expect(await moderate(reviewId, 'reject', 'Changed my mind')).toBe('is_published');
    expect((await reviewOf(id)).status).toBe('published');
    expect(await moderate(reviewId, 'unpublish', ' The book it names is out of print ')).toBe('unpublished');
    expect(await reviewOf(id)).toMatchObject({ status: 'unpublished', published_at: null, rejection_note: 'The book it names is out of print' });
    expect(await shownToAnyone()).toBe(0);
    expect(await moderate(reviewId, 'unpublish')).toBe('already');
    expect(await submit(id, { title: 'Changed after' })).toBe('not_published');
    expect(await moderate(reviewId, 'publish')).toBe('published');
    expect(await shownToAnyone()).toBe(1);
    expect((await historyOf(reviewId)).map((h) => [h.action, h.note])).toEqual([
      ['submitted', null],
      ['published', null],
      ['unpublished', 'The book it names is out of print'],
      ['published', null],
    ]);
  });

  it('anyone reads a published review’s public columns, and nothing of a review not published', async () => {
    const shown = await order();
    const hidden = await order();
    await claim();
    await markSent([shown, hidden]);
    await submit(shown, { body: 'Shown to everyone.' });
    await submit(hidden, { body: 'Waiting for the publisher.' });
    await moderate((await reviewOf(shown)).id, 'publish');
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
