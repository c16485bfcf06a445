/**
 * A new book is one file and its cover. The site is built with the catalog plus a fixture book (nothing else
 * changed), and the shop runs on that build: the book shows in the store and its search, on its own page with
 * its price and its cover in AVIF and WebP, in the sitemap and in valid Product JSON-LD, and checkout charges
 * the price from its file (the server reads the synced row). A price changed in the file reaches checkout
 * through a sync, stock set in the database survives it, and a removed file takes the book off sale.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { syncThroughApi } from '../../local/catalog';
import { CHROMIUM_FLAGS, HEADLESS_SHELL_PATH } from '../audit/chromium';
import { validateJsonLd, jsonLdBlocks } from '../audit/json-ld';
import { startTestShop, type TestShop } from '../helpers/shop';

const BOOK_ID = 'rosary-for-little-hands';
const TITLE = 'A Rosary for Little Hands';
const FIXTURE = join('tests', 'fixtures', 'second-book');
const DIST = '.dist-catalog-fixture';
// A fixed folder: the fixture build's content cache refers to the book files by their path.
const catalog = resolve('.dist-catalog-books');
const bookFile = join(catalog, `${BOOK_ID}.mdx`);

let t: TestShop;
let browser: Browser;

beforeAll(async () => {
  rmSync(catalog, { recursive: true, force: true });
  cpSync(join('content', 'books'), catalog, { recursive: true });
  cpSync(FIXTURE, catalog, { recursive: true });
  const { NODE_ENV: _node, VITEST: _vitest, ...env } = process.env;
  execFileSync(join('node_modules', '.bin', 'astro'), ['build', '--outDir', DIST], {
    env: { ...env, CATALOG_DIR: catalog, ASTRO_TELEMETRY_DISABLED: '1' },
    stdio: 'pipe',
  });
  vi.stubEnv('CATALOG_DIR', catalog);
  vi.stubEnv('LOCAL_DIST_DIR', DIST);
  // Built from these book files, so the new book is seeded with stock as a fresh local database seeds it.
  t = await startTestShop({ data: 'memory' });
  browser = await chromium.launch({ executablePath: HEADLESS_SHELL_PATH, args: CHROMIUM_FLAGS });
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
  vi.unstubAllEnvs();
  rmSync(DIST, { recursive: true, force: true });
  rmSync(catalog, { recursive: true, force: true });
});

const html = async (path: string) => {
  const response = await fetch(`${t.url}${path}`);
  expect(response.status, path).toBe(200);
  return response.text();
};

const address = { fullName: 'Guest', addressLine1: '1 Church St', city: 'Parramatta', state: 'NSW', postalCode: '2150', country: 'AU', shippingMethod: { id: 'au-standard' } };

async function checkout(quantity: number) {
  const response = await fetch(`${t.url}/api/create-checkout`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    // The browser's price is never charged: the cart sends a wrong one on purpose.
    body: JSON.stringify({ cartItems: [{ id: BOOK_ID, quantity, price: 0.01 }], shippingDetails: address, customerEmail: 'second-book@example.com' }),
  });
  expect(response.status).toBe(200);
  const { orderId } = (await response.json()) as { orderId: string };
  const { data: order } = await t.service().from('orders').select('subtotal_amount').eq('id', orderId).single();
  const { data: items } = await t.service().from('order_items').select('product_id, price_at_time, quantity').eq('order_id', orderId);
  return { orderId, subtotal: order!.subtotal_amount as number, items };
}

describe('a second book added as a file', () => {
  it('is in the store, and the store search finds it', async () => {
    const page = await browser.newPage();
    await page.goto(`${t.url}/store`);
    await page.getByRole('link', { name: TITLE }).waitFor();
    // The catalog's own books and the fixture.
    expect(await page.getByRole('article').count()).toBe(3);
    await page.getByLabel('Search products').fill('rosary');
    await page.waitForFunction(() => document.querySelectorAll('article').length === 1);
    expect(await page.getByRole('article').getByRole('heading').textContent()).toBe(TITLE);
    expect(page.url()).toContain('search=rosary');
    await page.close();
  });

  it('has its own page with its price and its cover as AVIF and WebP, width and height set', async () => {
    const page = await html(`/store/product/${BOOK_ID}`);
    expect(page).toContain(`<h1 class="text-3xl font-extrabold md:text-4xl">${TITLE}</h1>`);
    expect(page).toContain('$16.95');
    const picture = /<picture>([\s\S]*?)<\/picture>/.exec(page)?.[1] ?? '';
    const avif = /<source type="image\/avif" srcSet="([^" ]+)/.exec(picture)?.[1];
    const webp = /<source type="image\/webp" srcSet="([^" ]+)/.exec(picture)?.[1];
    expect(picture).toMatch(/<img [^>]*width="600" height="600"/);
    for (const [url, type] of [
      [avif, 'image/avif'],
      [webp, 'image/webp'],
    ] as const) {
      expect(url, type).toMatch(new RegExp(`^/_astro/${BOOK_ID}\\.`));
      const image = await fetch(`${t.url}${url}`);
      expect(image.headers.get('content-type')).toBe(type);
    }
    // Its social card shows its own cover; the database points at the original file.
    expect(page).toContain(`<meta property="og:image" content="http://localhost:4321/social/store/product/${BOOK_ID}.png"`);
    expect(page).toContain(`with the cover of ${TITLE}"`);
    expect((await fetch(`${t.url}/social/store/product/${BOOK_ID}.png`)).headers.get('content-type')).toBe('image/png');
    expect((await fetch(`${t.url}/covers/${BOOK_ID}.jpg`)).headers.get('content-type')).toBe('image/jpeg');
  });

  it('shows live stock on its page and can be added to the cart', async () => {
    const page = await browser.newPage();
    await page.goto(`${t.url}/store/product/${BOOK_ID}`);
    await page.getByText('In Stock').waitFor();
    await page.getByRole('button', { name: 'Add to Cart' }).first().click();
    await page.getByText(`${TITLE} added to cart`).first().waitFor();
    await page.close();
  });

  it('is in the sitemap', async () => {
    expect(await html('/sitemap-0.xml')).toContain(`/store/product/${BOOK_ID}</loc>`);
  });

  it('has valid Product JSON-LD with the price, ISBN and review from its file', async () => {
    const path = `/store/product/${BOOK_ID}`;
    const page = await html(path);
    expect(validateJsonLd(path, page, { types: ['Product', 'BreadcrumbList'] }).problems).toEqual([]);
    const product = jsonLdBlocks(page)
      .map((raw) => JSON.parse(raw) as Record<string, unknown>)
      .find((block) => block['@type'] === 'Product')!;
    expect(product).toMatchObject({
      name: TITLE,
      sku: BOOK_ID,
      gtin13: '9781234567897',
      offers: { price: '16.95', priceCurrency: 'AUD', availability: 'https://schema.org/InStock' },
      aggregateRating: { ratingValue: 4, reviewCount: 1 },
    });
  });

  it('is in the Google Shopping feed with its price and its ISBN as gtin', () => {
    const feed = readFileSync(join(DIST, 'feeds', 'google-merchant.xml'), 'utf8');
    const item = feed.split('<item>').find((entry) => entry.includes(`<g:id>${BOOK_ID}</g:id>`));
    expect(item).toContain('<g:price>16.95 AUD</g:price>');
    expect(item).toContain('<g:gtin>9781234567897</g:gtin>');
    expect(item).toContain(`/store/product/${BOOK_ID}</g:link>`);
    expect(item).not.toContain('identifier_exists');
  });

  it('is charged at the price from its file, read by the server from the synced row', async () => {
    const { subtotal, items } = await checkout(2);
    expect(subtotal).toBe(33.9);
    expect(items).toEqual([{ product_id: BOOK_ID, price_at_time: 16.95, quantity: 2 }]);
  });

  it('a price changed in the file and synced is what checkout charges; stock set in the database survives', async () => {
    expect((await t.service().from('products').update({ stock: 7 }).eq('id', BOOK_ID)).error).toBeNull();
    writeFileSync(bookFile, readFileSync(bookFile, 'utf8').replace('price: 16.95', 'price: 18.5'));
    expect(await syncThroughApi(t.service(), catalog)).toEqual({ synced: ['book-10-reasons', 'mass-is-awesome', BOOK_ID], withdrawn: [] });
    const { data } = await t.service().from('products').select('price, stock, weight, image_url').eq('id', BOOK_ID).single();
    expect(data).toEqual({ price: 18.5, stock: 7, weight: 180, image_url: `/covers/${BOOK_ID}.jpg` });
    const { subtotal, items } = await checkout(1);
    expect(subtotal).toBe(18.5);
    expect(items).toEqual([{ product_id: BOOK_ID, price_at_time: 18.5, quantity: 1 }]);
  });

  it('a removed file takes the book off sale at the next sync, and its orders keep their rows', async () => {
    const { orderId } = await checkout(1);
    rmSync(bookFile);
    expect(await syncThroughApi(t.service(), catalog)).toEqual({ synced: ['book-10-reasons', 'mass-is-awesome'], withdrawn: [BOOK_ID] });
    expect((await t.anon().from('products').select('id').eq('id', BOOK_ID)).data).toEqual([]);
    expect((await t.service().from('products').select('for_sale, stock').eq('id', BOOK_ID).single()).data).toEqual({ for_sale: false, stock: 7 });
    expect((await t.service().from('order_items').select('product_id').eq('order_id', orderId)).data).toEqual([{ product_id: BOOK_ID }]);
  });
});
