/**
 * Reviews through the functions, on the local shop: the scheduled `review-requests` run emails each delivered
 * order's buyer once (List-Unsubscribe and a visible unsubscribe, a signed link per book), never an opted-out
 * address; the form's link opens the order's books, and a link altered by one character or expired is refused;
 * a review is checked field by field; staff publish it, and the site is rebuilt from the database with it (the
 * build here is a stand-in that writes what the pages' read of published reviews finds); staff unpublish it, and
 * the rebuilt site leaves it out.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readServerEnv } from '../../src/config/env';
import { REVIEW_MESSAGES } from '../../src/features/reviews/contract';
import { readPublishedReviews } from '../../src/features/reviews/published';
import { readOutbox } from '../../functions/_lib/providers/local-email';
import { selectSiteBuilds } from '../../functions/_lib/providers/select';
import { signReviewLink } from '../../functions/_lib/review-links';
import { deliveredOrderItem, deliveredOrderRow } from '../helpers/delivered-order';
import { startTestShop, type TestShop } from '../helpers/shop';

const folder = mkdtempSync(join(tmpdir(), 'reviews-'));
const outbox = join(folder, 'outbox.jsonl');
const dist = join(folder, 'dist');
let t: TestShop;
let staff: SupabaseClient;
let builds = 0;

beforeAll(async () => {
  mkdirSync(dist, { recursive: true });
  writeFileSync(join(dist, 'reviews.json'), '{}');
  Object.assign(process.env, { LOCAL_OUTBOX_FILE: outbox, REVIEW_REQUEST_DELAY_DAYS: '0' });
  t = await startTestShop({
    distDir: dist,
    // What the book pages' build reads, written where the test can fetch it from the site served.
    siteBuild: async (outDir, env) => {
      builds += 1;
      mkdirSync(outDir, { recursive: true });
      writeFileSync(join(outDir, 'reviews.json'), JSON.stringify(Object.fromEntries(await readPublishedReviews(env))));
    },
  });
  await t.service().from('staff_members').insert({ email: 'reviews.staff@example.com' });
  staff = await t.signIn('reviews.staff@example.com');
});
afterAll(async () => {
  await t.close();
  for (const key of ['LOCAL_OUTBOX_FILE', 'REVIEW_REQUEST_DELAY_DAYS']) delete process.env[key];
});

async function deliveredOrder(email: string): Promise<string> {
  const { data, error } = await t.service().from('orders').insert(deliveredOrderRow(email)).select('id').single();
  if (error) throw error;
  await t
    .service()
    .from('order_items')
    .insert(deliveredOrderItem(data.id, { id: 'book-10-reasons', title: '10 Reasons Why Being Catholic is Awesome!' }));
  return data.id as string;
}

const runSchedule = async () => (await fetch(`${t.url}/.netlify/functions/review-requests`, { method: 'POST' })).json();
const requestsFor = async (orderId: string) => (await readOutbox(outbox)).filter((e) => e.idempotencyKey === `review-request-${orderId}`);
const review = (body: unknown) => fetch(`${t.url}/api/review`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const tokenOf = (text: string) => text.match(/\/review\?book=book-10-reasons#(\S+)/)?.[1];

async function asStaff(body: unknown, client = staff) {
  const { data } = await client.auth.getSession();
  return fetch(`${t.url}/api/admin-reviews`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${data.session?.access_token}` }, body: JSON.stringify(body) });
}

describe('review requests', () => {
  it('emails a delivered order’s buyer once, with an unsubscribe in the text and the headers; an opted-out address gets none', async () => {
    const orderId = await deliveredOrder('reviewer@example.com');
    const optedOut = await deliveredOrder('no-marketing@example.com');
    await t.service().rpc('marketing_opt_out', { p_email: 'no-marketing@example.com', p_via: 'reminder' });
    expect(await runSchedule()).toMatchObject({ sent: 1, failed: 0 });
    expect(await runSchedule()).toEqual({ sent: 0, failed: 0 });
    const sent = await requestsFor(orderId);
    expect(sent).toHaveLength(1);
    const number = await t.orderNumber(orderId);
    expect(sent[0]).toMatchObject({ to: 'reviewer@example.com', subject: `How was your order ${number}?` });
    expect(sent[0]!.text).toMatch(/^Hello Mary,/);
    expect(sent[0]!.text).toContain('Review 10 Reasons Why Being Catholic is Awesome!: http');
    expect(sent[0]!.text).toMatch(/unsubscribe with one click: http\S+\/newsletter\/unsubscribe#/);
    expect(sent[0]!.headers).toMatchObject({ 'List-Unsubscribe': expect.stringMatching(/^<http\S+\/api\/newsletter-unsubscribe\?token=/), 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });
    expect(await requestsFor(optedOut)).toEqual([]);
  });
});

describe('the review form and moderation', () => {
  let orderId: string;
  let token: string;
  beforeAll(async () => {
    orderId = await deliveredOrder('form@example.com');
    await runSchedule();
    token = tokenOf((await requestsFor(orderId))[0]!.text)!;
  });

  it('opens the order’s books from the link, with the name to show prefilled', async () => {
    const answer = await review({ action: 'read', token });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({
      number: await t.orderNumber(orderId),
      displayName: 'Mary S.',
      books: [{ productId: 'book-10-reasons', title: '10 Reasons Why Being Catholic is Awesome!', review: null }],
    });
  });

  it('refuses a link altered by one character, anywhere in it, and says when a link has expired', async () => {
    for (const at of [10, Math.floor(token.length / 2), token.length - 1]) {
      const altered = `${token.slice(0, at)}${token[at] === 'A' ? 'B' : 'A'}${token.slice(at + 1)}`;
      const answer = await review({ action: 'read', token: altered });
      expect(answer.status, `character ${at}`).toBe(400);
      expect(await answer.json()).toEqual({ error: expect.stringContaining('This review link is not valid') });
    }
    const old = await signReviewLink(readServerEnv(), orderId, Date.now() - 61 * 86_400_000);
    expect((await review({ action: 'read', token: old })).status).toBe(410);
  });

  it('checks a review field by field, saves it, and lets the link change it until it is published', async () => {
    const bad = await review({ action: 'save', token, productId: 'book-10-reasons', version: 0, review: { rating: 6, title: '', body: 'x', displayName: 'M', consent: false } });
    expect(bad.status).toBe(400);
    // A NUL pasted into the review is the visitor's to fix (400), not a database fault (5xx).
    const nul = await review({ action: 'save', token, productId: 'book-10-reasons', version: 0, review: { rating: 5, title: 'A joy', body: 'Lovely\u0000', displayName: 'M', consent: true } });
    expect(nul.status).toBe(400);
    expect(await nul.json()).toMatchObject({ error: expect.stringContaining('control character') });
    const fields = { rating: 5, title: 'A joy', body: 'Our daughter counts along every night.', displayName: 'Mary S.', consent: true };
    const saved = await review({ action: 'save', token, productId: 'book-10-reasons', version: 0, review: fields });
    expect(await saved.json()).toMatchObject({ outcome: 'saved', version: 1 });
    // A second window, opened before the first saved, is refused rather than overwriting it.
    const stale = await review({ action: 'save', token, productId: 'book-10-reasons', version: 0, review: { ...fields, title: 'From the other window' } });
    expect(stale.status).toBe(409);
    expect(await stale.json()).toEqual({ error: REVIEW_MESSAGES.changedElsewhere });
    expect(await (await review({ action: 'save', token, productId: 'book-10-reasons', version: 1, review: { ...fields, title: 'A real joy' } })).json()).toMatchObject({
      outcome: 'updated',
      version: 2,
    });
    expect(await (await review({ action: 'read', token })).json()).toMatchObject({ books: [{ review: { title: 'A real joy', version: 2 } }] });
  });

  it('staff publish it; the site is rebuilt and its pages’ read finds it; the link can no longer change it', async () => {
    const { data } = await t.service().from('reviews').select('id').eq('order_id', orderId).single();
    const shopper = await t.signIn('someone@example.com');
    expect((await asStaff({ action: 'publish', reviewId: data!.id }, shopper)).status).toBe(403);
    expect(await (await fetch(`${t.url}/reviews.json`)).json()).toEqual({});

    const before = builds;
    const published = await asStaff({ action: 'publish', reviewId: data!.id });
    expect(published.status).toBe(200);
    expect(await published.json()).toMatchObject({ outcome: 'published', message: expect.stringContaining('The site is being rebuilt') });
    await expect
      .poll(async () => (await (await fetch(`${t.url}/reviews.json`)).json()) as Record<string, unknown>, { timeout: 10_000 })
      .toEqual({
        'book-10-reasons': [{ author: 'Mary S.', rating: 5, title: 'A real joy', body: 'Our daughter counts along every night.', date: expect.any(String), verifiedBuyer: true }],
      });
    expect(builds).toBe(before + 1);
    const again = await review({ action: 'save', token, productId: 'book-10-reasons', version: 2, review: { rating: 1, title: 'x', body: 'x', displayName: 'x', consent: true } });
    expect(again.status).toBe(409);
  });

  it('a published review is unpublished, never rejected: rebuilt off the pages, and its link says it is not published', async () => {
    const { data } = await t.service().from('reviews').select('id').eq('order_id', orderId).single();
    const rejected = await asStaff({ action: 'reject', reviewId: data!.id, note: '' });
    expect(rejected.status).toBe(409);
    expect(await rejected.json()).toEqual({ error: expect.stringContaining('use Unpublish to take it off') });

    const before = builds;
    const unpublished = await asStaff({ action: 'unpublish', reviewId: data!.id, note: 'Names the school in full' });
    expect(unpublished.status).toBe(200);
    expect(await unpublished.json()).toMatchObject({ outcome: 'unpublished', message: expect.stringContaining('comes off the book’s pages') });
    await expect.poll(async () => (await (await fetch(`${t.url}/reviews.json`)).json()) as Record<string, unknown>, { timeout: 10_000 }).toEqual({});
    expect(builds).toBe(before + 1);
    const { data: history } = await t.service().from('review_history').select('action, actor, note').eq('review_id', data!.id).order('id');
    expect(history!.at(-1)).toEqual({ action: 'unpublished', actor: 'reviews.staff@example.com', note: 'Names the school in full' });

    expect(await (await review({ action: 'read', token })).json()).toMatchObject({ books: [{ review: { title: 'A real joy', status: 'unpublished' } }] });
    const again = await review({ action: 'save', token, productId: 'book-10-reasons', version: 2, review: { rating: 1, title: 'x', body: 'x', displayName: 'x', consent: true } });
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({ error: REVIEW_MESSAGES.notPublished });
  });
});

describe('choosing how the site is rebuilt', () => {
  it('a Netlify build hook where one is set; the local server’s own rebuild locally; none in a deploy without one', () => {
    expect(selectSiteBuilds(readServerEnv({ NETLIFY_BUILD_HOOK_URL: 'https://api.netlify.com/build_hooks/5f2a0c1e9d3b4a6f8e7d1c2b', SITE_ID: 'x' }))?.name).toBe('netlify-build-hook');
    expect(selectSiteBuilds(readServerEnv({ SHOP_LOCAL_SERVER: '1' }))?.name).toBe('local');
    expect(selectSiteBuilds(readServerEnv({ SHOP_LOCAL_SERVER: '1', SITE_ID: 'x' }))).toBeNull();
  });
});
