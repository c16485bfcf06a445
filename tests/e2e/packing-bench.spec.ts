/**
 * The packing bench on the local shipping stand-in: a paid Australian order reaches the platform by itself, its
 * label prints from /admin (a one-page PDF naming the order and its tracking number) and ships it with nothing
 * typed, a Delivered event from the stand-in's TEST page completes it, and the status page shows that event with
 * its date. Three orders' labels print as one PDF of three pages. Orders are paid through the shop's own checkout
 * and TEST payment page, without the payment screens.
 */
import { readFile } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import { PDFDocument } from 'pdf-lib';
import { asService, buysThroughCheckout, lookAtBothWidths, ownProduct, staffCli, staffSignsIn, uniqueEmail } from './support';

const numberOf = (orderId: string) => orderId.slice(0, 8).toUpperCase();

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
  const number = numberOf(orderId);

  // At the platform, with no label yet.
  await page.goto('/api/test-shipping');
  const atPlatform = page.locator(`article[data-order="${number}"]`);
  await expect(atPlatform.getByText('No label printed yet')).toBeVisible();
  await expect(atPlatform.getByRole('button', { name: `Delivered: order ${number}` })).toBeDisabled();

  const publisher = uniqueEmail('bench-publisher');
  staffCli('add', publisher);
  await staffSignsIn(page, publisher);
  await page.getByLabel('Search by order number or email').fill(email);
  await page.getByRole('link', { name: number }).click();
  await expect(page.getByTestId('shipment-state')).toHaveText(/At the shipping platform: ready for its label/);
  await lookAtBothWidths(page, 'bench-order-to-label');

  const pdf = await downloadedPdf(page, () => page.getByRole('button', { name: 'Print label', exact: true }).click());
  expect(pdf.getPageCount()).toBe(1);
  const tracking = /Order [0-9A-F]{8}: Australia Post (33TST\d{7})/.exec(pdf.getSubject() ?? '')?.[1];
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
  for (const id of ids) await page.getByRole('checkbox', { name: `Select order ${numberOf(id)}` }).check();
  await expect(page.getByRole('button', { name: 'Print labels for all to pack' })).toBeVisible();
  await lookAtBothWidths(page, 'bench-to-pack');
  const pdf = await downloadedPdf(page, () => page.getByRole('button', { name: 'Print their labels' }).click());
  expect(pdf.getPageCount()).toBe(3);
  for (const id of ids) expect(pdf.getSubject()).toContain(`Order ${numberOf(id)}: Australia Post 33TST`);
  await expect(page.getByText('3 labels are ready.').first()).toBeVisible();
  // Each label shipped its order: none is left to pack.
  await expect(page.getByText('No orders here.')).toBeVisible();
});
