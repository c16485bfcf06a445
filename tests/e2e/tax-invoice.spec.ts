/**
 * The tax invoice of a paid order, as the buyer meets it (on a phone, 375 px, and a desktop, 1280 px): on the status
 * page, then its print view, printed to an A4 PDF, and its printed look kept as a picture
 * (test-results, and /tmp/shots-buyer for a person to look at).
 */
import { mkdirSync } from 'node:fs';
import { expect as baseExpect, test } from '@playwright/test';
import { readOutbox } from '../../functions/_lib/providers/local-email';
import { guestBuys, lookAtBothWidths, uniqueEmail, WIDTHS } from './support';

const OUTBOX = 'test-results/outbox.jsonl';
const BOOK = '10 Reasons Why Being Catholic is Awesome!';
const SHOTS = '/tmp/shots-buyer';
const expect = baseExpect.configure({ timeout: 15_000 });
const [PHONE] = WIDTHS;

test('a paid order’s tax invoice: on the status page, then printed on A4 with the ABN, the items, the GST and the total', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: PHONE.width, height: PHONE.height });
  const email = uniqueEmail('invoice');
  const number = await guestBuys(page, email);
  const confirmation = (await readOutbox(OUTBOX)).find((e) => e.to === email && e.subject.includes(`${number} is confirmed`));
  expect(confirmation?.text).toContain('TAX INVOICE');
  const statusLink = new URL(confirmation!.text.match(/Follow your order: (\S+)/)![1]!);
  // A tab of its own, as from the email: the checkout's tab goes on to the confirmation page by itself.
  const statusPage = await page.context().newPage();
  await statusPage.setViewportSize({ width: PHONE.width, height: PHONE.height });
  await statusPage.goto(statusLink.pathname + statusLink.hash);

  const invoice = statusPage.getByTestId('tax-invoice');
  await expect(invoice.getByRole('heading', { name: 'Tax invoice' })).toBeVisible();
  await expect(invoice.getByTestId('invoice-abn')).toHaveText(/^51 824 753 556/);
  await expect(invoice.getByRole('cell', { name: `${BOOK} × 1` })).toBeVisible();
  // $22 book + $15 shipping, GST one eleventh of it.
  await expect(invoice.getByTestId('invoice-total')).toHaveText('$37.00');
  await expect(invoice.getByTestId('invoice-gst')).toHaveText('GST included: $3.36');
  await lookAtBothWidths(statusPage, 'status-tax-invoice');

  await statusPage.getByRole('link', { name: 'Print tax invoice' }).click();
  await expect(statusPage).toHaveURL(/\/order-status\/invoice#[0-9a-f]{64}$/);
  await expect(statusPage.getByRole('heading', { name: 'Tax invoice', level: 1 })).toBeVisible();
  await lookAtBothWidths(statusPage, 'tax-invoice');

  // On paper: the invoice alone, on one A4 statusPage.
  await statusPage.emulateMedia({ media: 'print' });
  await statusPage.setViewportSize({ width: 794, height: 1123 });
  await expect(statusPage.getByRole('button', { name: 'Print' })).toBeHidden();
  await expect(statusPage.getByRole('banner')).toBeHidden();
  for (const text of [/ABN/, /GST included: \$3\.36/, new RegExp(`${BOOK.replace(/[!?]/g, '\\$&')} × 1`), /\$37\.00/])
    await expect(statusPage.getByTestId('tax-invoice').getByText(text).first()).toBeVisible();
  const pdf = await statusPage.pdf({ format: 'A4', printBackground: true });
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  // One page, A4 (595 × 842 points).
  expect(pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g)).toHaveLength(1);
  expect(pdf.toString('latin1')).toMatch(/\/MediaBox\s*\[0 0 595\.\d+ 841\.\d+\]|\/MediaBox\s*\[0 0 595\.\d+ 842\.\d+\]/);
  mkdirSync(SHOTS, { recursive: true });
  await test.info().attach('tax-invoice.pdf', { body: pdf, contentType: 'application/pdf' });
  const picture = await statusPage.screenshot({ fullPage: true });
  await test.info().attach('tax-invoice-print.png', { body: picture, contentType: 'image/png' });
  (await import('node:fs')).writeFileSync(`${SHOTS}/tax-invoice.pdf`, pdf);
  (await import('node:fs')).writeFileSync(`${SHOTS}/tax-invoice-print.png`, picture);
});
