/**
 * The packing bench on the local shipping stand-in: a paid Australian order reaches the platform by itself, its
 * label prints from /admin (a one-page PDF naming the order and its tracking number) and ships it with nothing
 * typed, a Delivered event from the stand-in's TEST page completes it, and the status page shows that event with
 * its date. Three orders' labels print as one PDF of three pages. Orders are paid through the shop's own checkout
 * and TEST payment page, without the payment screens. A forged, a repeated and an unknown order's tracking event
 * change nothing.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { PDFDocument } from 'pdf-lib';
import { LOCAL_WEBHOOK_SECRET, localShipments } from '../../functions/_lib/providers/local-shipping';
import { STARSHIPIT_SIGNATURE_HEADER, signStarshipitBody } from '../../functions/_lib/providers/starshipit';
import { asService, buysThroughCheckout, deliveredFromTestPage, lookAtBothWidths, openFoundOrder, orderNumberOf, ownProduct, staffCli, staffSignsIn, uniqueEmail } from './support';

/** Clicks `button` and reads the PDF the browser saves. */
async function downloadedPdf(page: Page, click: () => Promise<void>): Promise<PDFDocument> {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  const bytes = await readFile((await download.path())!);
  expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
  return PDFDocument.load(bytes);
}

test('a paid order goes to the platform, its label prints and ships it, and a delivered event completes it', async ({ page, request }) => {
  const book = await ownProduct(request, 'bench', { stock: 10 });
  const email = uniqueEmail('bench-buyer');
  const orderId = await buysThroughCheckout(request, book.id, 1, email);
  const number = await orderNumberOf(request, orderId);

  // At the platform, with no label yet.
  await page.goto('/api/test-shipping');
  const atPlatform = page.locator(`article[data-order="${number}"]`);
  await expect(atPlatform.getByText('No label printed yet')).toBeVisible();
  await expect(atPlatform.getByRole('button', { name: `Delivered: order ${number}` })).toBeDisabled();

  const publisher = uniqueEmail('bench-publisher');
  staffCli('add', publisher);
  await staffSignsIn(page, publisher);
  await openFoundOrder(page, email, number);
  await expect(page.getByTestId('shipment-state')).toHaveText(/At the shipping platform: ready for its label/);
  await lookAtBothWidths(page, 'bench-order-to-label');

  const pdf = await downloadedPdf(page, () => page.getByRole('button', { name: 'Print label', exact: true }).click());
  expect(pdf.getPageCount()).toBe(1);
  const tracking = /Order [1-9][0-9]{3,}: Australia Post (33TST\d{7})/.exec(pdf.getSubject() ?? '')?.[1];
  expect(pdf.getSubject()).toContain(`Order ${number}: Australia Post`);
  expect(tracking).toBeTruthy();
  await expect(page.getByText(`The label of order ${number} is ready (Australia Post ${tracking}).`).first()).toBeVisible();
  // The tracking number is on the order with nothing typed, and the order has shipped.
  await expect(page.getByText(`Australia Post: ${tracking}`)).toBeVisible();
  await expect(page.getByTestId('shipment-state')).toHaveText(/Label printed/);
  await expect(page.getByRole('button', { name: 'Print label again' })).toBeVisible();

  await page.goto('/api/test-shipping');
  await expect(atPlatform.getByText(`Label printed: Australia Post ${tracking}`)).toBeVisible();
  await atPlatform.getByRole('button', { name: `Delivered: order ${number}` }).click();
  await expect(page.getByRole('status')).toHaveText(`Sent Delivered ${number} to the shop.`);
  await expect(page.locator(`article[data-order="${number}"]`).getByText(/^Delivered — /)).toBeVisible();

  const [row] = await asService<Array<{ status: string; tracking_number: string; status_token: string }>>(request, 'GET', `orders?select=status,tracking_number,status_token&id=eq.${orderId}`);
  expect(row).toMatchObject({ status: 'completed', tracking_number: tracking });

  await page.goto(`/order-status#${row!.status_token}`);
  await expect(page.getByRole('heading', { name: `Order ${number}` })).toBeVisible();
  await expect(page.getByTestId('latest-tracking')).toHaveText(/^Latest from the carrier: Delivered — \d{1,2} \w+ \d{4}/);
  await lookAtBothWidths(page, 'bench-status-delivered');
});

test('three orders’ labels print as one PDF of three pages, at a phone’s width', async ({ page, request }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  const book = await ownProduct(request, 'bench-three', { stock: 10 });
  const email = uniqueEmail('bench-three');
  const ids = [];
  for (let i = 0; i < 3; i++) ids.push(await buysThroughCheckout(request, book.id, 1, email));
  const publisher = uniqueEmail('bench-publisher');
  staffCli('add', publisher);
  await staffSignsIn(page, publisher);
  await page.getByLabel('Search by order number or email').fill(email);
  const numbers = [];
  for (const id of ids) numbers.push(await orderNumberOf(request, id));
  for (const number of numbers) await page.getByRole('checkbox', { name: `Select order ${number}`, exact: true }).check();
  await expect(page.getByRole('button', { name: 'Print labels for all to pack' })).toBeVisible();
  await lookAtBothWidths(page, 'bench-to-pack');
  const pdf = await downloadedPdf(page, () => page.getByRole('button', { name: 'Print their labels' }).click());
  expect(pdf.getPageCount()).toBe(3);
  for (const number of numbers) expect(pdf.getSubject()).toContain(`Order ${number}: Australia Post 33TST`);
  await expect(page.getByText(`3 labels are ready, for orders ${numbers.join(', ')}.`).first()).toBeVisible();
  // Each label shipped its order: none is left to pack.
  await expect(page.getByText('No orders here.')).toBeVisible();
});

/** Where the stand-in keeps what it was sent (playwright.config.ts sets LOCAL_SHIPPING_FILE for the local server). */
const SHIPPING_FILE = resolve('test-results/shipping-platform.jsonl');

type OrderRow = { status: string; tracking_number: string; tracking_status: string | null; tracking_status_at: string | null; status_token: string };
const orderRow = async (request: APIRequestContext, orderId: string) =>
  (await asService<OrderRow[]>(request, 'GET', `orders?select=status,tracking_number,tracking_status,tracking_status_at,status_token&id=eq.${orderId}`))[0]!;
const trackingRows = (request: APIRequestContext, filter: string) =>
  asService<Array<{ status: string; event_key: string }>>(request, 'GET', `shipment_tracking_events?select=status,event_key&${filter}`);
const trackingUpdates = (request: APIRequestContext, orderId: string) =>
  asService<Array<{ detail: string }>>(request, 'GET', `order_events?select=detail&action=eq.tracking_update&order_id=eq.${orderId}`);

test('a forged, a repeated and an unknown order’s tracking event change nothing', async ({ page, request }) => {
  const book = await ownProduct(request, 'bench-forged', { stock: 10 });
  const email = uniqueEmail('bench-forged');
  const orderId = await buysThroughCheckout(request, book.id, 1, email);
  const number = await orderNumberOf(request, orderId);

  const publisher = uniqueEmail('bench-publisher');
  staffCli('add', publisher);
  await staffSignsIn(page, publisher);
  await openFoundOrder(page, email, number);
  await expect(page.getByTestId('shipment-state')).toHaveText(/At the shipping platform: ready for its label/);
  const pdf = await downloadedPdf(page, () => page.getByRole('button', { name: 'Print label', exact: true }).click());
  const tracking = /Order [1-9][0-9]{3,}: Australia Post (33TST\d{7})/.exec(pdf.getSubject() ?? '')?.[1];
  expect(tracking).toBeTruthy();
  await expect(page.getByTestId('shipment-state')).toHaveText(/Label printed/);

  const post = (body: string, signature: string) => request.post('/api/shipping-webhook', { headers: { 'content-type': 'application/json', [STARSHIPIT_SIGNATURE_HEADER]: signature }, data: body });
  const deliveredBody = (orderNumber: string, trackingNumber: string) =>
    JSON.stringify({
      order_number: orderNumber,
      carrier_name: 'Australia Post',
      carrier_service: 'Parcel Post',
      shipment_date: new Date().toISOString(),
      tracking_number: trackingNumber,
      tracking_status: 'Delivered',
      last_updated_date: new Date().toISOString(),
    });

  // (a) Signed with another secret: refused, and the order stays shipped.
  const forged = deliveredBody(number, tracking!);
  const refused = await post(forged, signStarshipitBody('not-the-platform-secret', forged));
  expect(refused.status()).toBe(401);
  expect((await refused.json()).error).toBe('This tracking event is not signed by the shipping platform.');
  const shipped = await orderRow(request, orderId);
  expect(shipped).toMatchObject({ status: 'shipped', tracking_number: tracking });
  expect(await trackingRows(request, `order_id=eq.${orderId}`)).toEqual([]);
  await page.goto(`/order-status#${shipped.status_token}`);
  await expect(page.getByRole('heading', { name: `Order ${number}` })).toBeVisible();
  await expect(page.getByText(tracking!)).toBeVisible();
  await expect(page.getByText(/Delivered/)).toHaveCount(0);

  // (b) The stand-in's genuine Delivered event completes it; the very same body and signature again change nothing.
  await deliveredFromTestPage(page, number);
  const delivered = await orderRow(request, orderId);
  expect(delivered).toMatchObject({ status: 'completed', tracking_status: 'Delivered' });
  const sent = (await localShipments(SHIPPING_FILE)).find((s) => s.order.orderNumber === number)?.events.find((e) => e.status === 'Delivered')?.sent;
  expect(sent).toBeTruthy();
  const repeat = await post(sent!.body, sent!.signature);
  expect(repeat.ok()).toBe(true);
  expect(await repeat.json()).toEqual({ received: true, outcome: 'duplicate' });
  expect(await orderRow(request, orderId)).toEqual(delivered);
  expect((await trackingRows(request, `order_id=eq.${orderId}`)).map((r) => r.status)).toEqual(['Delivered']);
  expect(await trackingUpdates(request, orderId)).toEqual([{ detail: 'Delivered' }]);

  // (c) Correctly signed, for an order the shop never sent: answered so the platform stops retrying, nothing kept.
  // The start of this order's id, its number before orders were numbered, is such a number now.
  const stranger = orderId.slice(0, 8).toUpperCase();
  const strangerTracking = `33TST${String(Date.now()).slice(-7)}`;
  const unknown = deliveredBody(stranger, strangerTracking);
  const answered = await post(unknown, signStarshipitBody(LOCAL_WEBHOOK_SECRET, unknown));
  expect(answered.ok()).toBe(true);
  expect(await answered.json()).toEqual({ received: true, outcome: 'unknown_order' });
  expect(await trackingRows(request, `tracking_number=eq.${strangerTracking}`)).toEqual([]);
  expect(await asService<unknown[]>(request, 'GET', `orders?select=id&tracking_number=eq.${strangerTracking}`)).toEqual([]);
  expect(await orderRow(request, orderId)).toEqual(delivered);
});

test('a delivery address changed in /admin reaches the order at the platform before its label', async ({ page, request }) => {
  const book = await ownProduct(request, 'bench-address', { stock: 10 });
  const email = uniqueEmail('bench-mover');
  const orderId = await buysThroughCheckout(request, book.id, 1, email);
  const number = await orderNumberOf(request, orderId);
  const atPlatform = page.locator(`article[data-order="${number}"]`);

  const publisher = uniqueEmail('bench-address-publisher');
  staffCli('add', publisher);
  await staffSignsIn(page, publisher);
  await openFoundOrder(page, email, number);
  await expect(page.getByTestId('shipment-state')).toHaveText(/At the shipping platform: ready for its label/);
  await page.getByRole('button', { name: 'Edit delivery address' }).click();
  await page.getByLabel('Address line 1').fill('7 Changed Lane');
  await page.getByRole('button', { name: 'Save address' }).click();
  await expect(page.getByText('Delivery address changed; the old one is in the history.').first()).toBeVisible();
  await expect(page.getByText(/The shipping platform has the new address\./)).toBeVisible();
  await lookAtBothWidths(page, 'bench-address-changed');

  await page.goto('/api/test-shipping');
  await expect(atPlatform.getByText(/7 Changed Lane/)).toBeVisible();
});
