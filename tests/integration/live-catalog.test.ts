/**
 * The live price and stock answer through the local server, which caches it as Netlify's CDN does: one read
 * of the database per cache period, purged when the publisher sets stock (staff only), when a sale takes
 * stock and when a cancellation puts it back.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_CATALOG_CACHE_HEADERS, LIVE_CATALOG_PATH } from '../../src/features/catalog/live-answer';
import { productFromRow } from '../../src/features/catalog/product';
import liveCatalog, { config as liveCatalogConfig } from '../../functions/live-catalog';
import { LocalCdnCache } from '../../local/cdn-cache';
import { startTestShop, type TestShop } from '../helpers/shop';

let t: TestShop;
let publisher: SupabaseClient;
let shopper: SupabaseClient;
const BOOK = 'book-10-reasons';

beforeAll(async () => {
  t = await startTestShop();
  await t.service().from('staff_members').insert({ email: 'publisher@example.com' });
  publisher = await t.signIn('publisher@example.com');
  shopper = await t.signIn('shopper@example.com');
}, 180_000);
afterAll(() => t.close());

async function live() {
  const response = await fetch(`${t.url}${LIVE_CATALOG_PATH}`);
  const body = (await response.json()) as { products: unknown[] };
  return { response, products: body.products.map(productFromRow) };
}
const stockOf = async () => (await live()).products.find((p) => p.id === BOOK)?.stock;
const tokenOf = async (client: SupabaseClient) => (await client.auth.getSession()).data.session!.access_token;
const purge = (token?: string, body: unknown = { productId: BOOK }) =>
  fetch(`${t.url}/api/catalog-purge`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) }, body: JSON.stringify(body) });

describe('the live catalog answer', () => {
  it('is mounted where the pages read it (the function states its path as a literal, for Netlify’s bundler)', () => {
    expect(liveCatalogConfig.path).toBe(LIVE_CATALOG_PATH);
  });

  it('lists the products for sale with their price and stock, cached by the CDN and always revalidated by browsers', async () => {
    const { response, products } = await live();
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
    // The CDN-only headers are the CDN's: a browser never sees them.
    expect(response.headers.get('netlify-cdn-cache-control')).toBeNull();
    expect(response.headers.get('netlify-cache-tag')).toBeNull();
    // The CDN's key for it leaves every query parameter out (the one named is never sent).
    expect(response.headers.get('netlify-vary')).toBe(LIVE_CATALOG_CACHE_HEADERS['netlify-vary']);
    const { data: rows } = await t.service().from('products').select('id, price, stock').eq('for_sale', true);
    expect(products.map((p) => ({ id: p.id, price: p.price, stock: p.stock })).sort((a, b) => a.id.localeCompare(b.id))).toEqual(
      rows!.map((r) => ({ id: r.id, price: Number(r.price), stock: r.stock })).sort((a, b) => a.id.localeCompare(b.id)),
    );
    expect((await live()).response.headers.get('cache-status')).toBe('"Netlify Edge"; hit');
  });

  it('is one cached answer whatever the query string: a new one does not read the database again', async () => {
    expect((await purge(await tokenOf(publisher))).status).toBe(200);
    const statusFor = async (query: string) => {
      const response = await fetch(`${t.url}${LIVE_CATALOG_PATH}${query}`);
      await response.body?.cancel();
      return response.headers.get('cache-status');
    };
    expect(await statusFor('?x=1')).toBe('"Netlify Edge"; fwd=miss');
    expect(await statusFor('?x=2')).toBe('"Netlify Edge"; hit');
    expect(await statusFor('?utm_source=newsletter&fbclid=abc')).toBe('"Netlify Edge"; hit');
    expect(await statusFor('')).toBe('"Netlify Edge"; hit');
  });

  it('is one cached answer for `?none=…` too: the one parameter the CDN keys by is redirected, never read', async () => {
    expect((await purge(await tokenOf(publisher))).status).toBe(200);
    const before = await stockOf();
    // Changed behind the cache's back (no purge): only a read of the database could show it.
    await t
      .service()
      .from('products')
      .update({ stock: (before ?? 0) + 7 })
      .eq('id', BOOK);
    const redirect = await fetch(`${t.url}${LIVE_CATALOG_PATH}?none=1`, { redirect: 'manual' });
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get('location')).toBe(LIVE_CATALOG_PATH);
    expect((await fetch(`${t.url}${LIVE_CATALOG_PATH}?none=1`, { redirect: 'manual' })).headers.get('cache-status')).toBe('"Netlify Edge"; hit');
    for (const query of ['?none=1', '?none=2', '?x=1', '?none=3&x=2']) {
      const response = await fetch(`${t.url}${LIVE_CATALOG_PATH}${query}`);
      const body = (await response.json()) as { products: unknown[] };
      expect(body.products.map(productFromRow).find((p) => p.id === BOOK)?.stock, query).toBe(before);
    }
    await t.service().from('products').update({ stock: before }).eq('id', BOOK);
  });

  it('runs the function once for the bare path and once per new `?none=…` (a redirect), and never again', async () => {
    const cache = new LocalCdnCache();
    const calls: string[] = [];
    const ask = (target: string) =>
      cache.answer(target, () => {
        calls.push(target);
        return liveCatalog(new Request(`${t.url}${target}`));
      });
    for (const target of [LIVE_CATALOG_PATH, `${LIVE_CATALOG_PATH}?none=1`, `${LIVE_CATALOG_PATH}?none=1`, `${LIVE_CATALOG_PATH}?x=1`, LIVE_CATALOG_PATH]) {
      await (await ask(target)).arrayBuffer();
    }
    expect(calls).toEqual([LIVE_CATALOG_PATH, `${LIVE_CATALOG_PATH}?none=1`]);
    expect((await ask(`${LIVE_CATALOG_PATH}?none=1`)).status).toBe(301);
  });

  it('leaves out a product taken off sale (after a purge)', async () => {
    await t.service().from('products').update({ for_sale: false }).eq('id', BOOK);
    expect((await live()).products.some((p) => p.id === BOOK)).toBe(true); // still the cached answer
    expect((await purge(await tokenOf(publisher))).status).toBe(200);
    expect((await live()).products.some((p) => p.id === BOOK)).toBe(false);
    await t.service().from('products').update({ for_sale: true }).eq('id', BOOK);
    await purge(await tokenOf(publisher));
  });
});

describe('purging after the publisher sets stock', () => {
  it('refuses a visitor (401) and a shopper who is not staff (403), and keeps the cached answer', async () => {
    const before = await stockOf();
    await t.service().from('products').update({ stock: 7 }).eq('id', BOOK);
    expect((await purge()).status).toBe(401);
    const refused = await purge(await tokenOf(shopper));
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ error: "You don't have access to the back office." });
    expect(await stockOf()).toBe(before);
  });

  it('checks its body with a message', async () => {
    const token = await tokenOf(publisher);
    const answer = await purge(token, { productId: '' });
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { error: string }).error).toBe('productId: productId is missing');
    expect((await purge(token, { productId: BOOK, extra: 1 })).status).toBe(400);
  });

  it('shows the stock the publisher set on the next read', async () => {
    await live();
    const { error } = await publisher.rpc('admin_set_stock', { p_product_id: BOOK, p_stock: 42, p_reason: 'reprint delivered' });
    expect(error).toBeNull();
    const answer = await purge(await tokenOf(publisher));
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ message: 'The shop pages show the new stock.' });
    const after = await live();
    expect(after.response.headers.get('cache-status')).toBe('"Netlify Edge"; fwd=miss');
    expect(after.products.find((p) => p.id === BOOK)?.stock).toBe(42);
  });
});

describe('purging after a sale and a cancellation', () => {
  it('a paid order takes the stock and the next read shows it; cancelling puts it back and the next read shows that', async () => {
    await t.service().from('products').update({ stock: 3 }).eq('id', BOOK);
    await purge(await tokenOf(publisher));
    expect(await stockOf()).toBe(3);

    const address = { fullName: 'Buyer One', addressLine1: '1 Church St', city: 'Parramatta', state: 'NSW', postalCode: '2150', country: 'AU', shippingMethod: { id: 'au-standard' } };
    const checkout = await fetch(`${t.url}/api/create-checkout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ cartItems: [{ id: BOOK, quantity: 3 }], shippingDetails: address, customerEmail: 'buyer@example.com' }),
    });
    const created = (await checkout.json()) as { orderId: string; url: string };
    expect(checkout.status, JSON.stringify(created)).toBe(200);
    // Pay on the TEST payment page, as the shopper's browser posts its form.
    const page = new URL(created.url, t.url);
    const form = new URLSearchParams({ ...Object.fromEntries(page.searchParams), action: 'pay', payer: 'Buyer One' });
    const paid = await fetch(`${t.url}${page.pathname}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form, redirect: 'manual' });
    expect(paid.status).toBe(303);
    expect(await stockOf()).toBe(0);

    const cancel = await fetch(`${t.url}/api/admin-order`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${await tokenOf(publisher)}` },
      body: JSON.stringify({ action: 'cancel', orderId: created.orderId }),
    });
    expect(cancel.status).toBe(200);
    expect(await stockOf()).toBe(3);
  });
});
