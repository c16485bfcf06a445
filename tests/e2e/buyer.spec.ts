/**
 * The buyer and a gift's recipient, as the publisher meets them (the journey once on a phone, 375 px, its screens
 * looked at on a desktop, 1280 px, too): a gift with no message, paid on the TEST page with the name on the card;
 * its gift slip says whom it is from, the publisher's notice says from whom to whom, and the sales CSV files it
 * under the buyer with the recipient as the delivery name.
 */
import { expect as baseExpect, test } from '@playwright/test';
import { readOutbox } from '../../functions/_lib/providers/local-email';
import { addToCart, downloadedCsv, fillAddress, grantStaff, lookAtBothWidths, payInNewTab, searchOrders, staffSignsIn, uniqueEmail, WIDTHS } from './support';

const OUTBOX = 'test-results/outbox.jsonl';
const expect = baseExpect.configure({ timeout: 15_000 });
const [PHONE] = WIDTHS;
/** Today in Sydney, as the sales' dates are. */
const sydneyToday = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Australia/Sydney' }).format(new Date());

test('a gift with no message, paid with the name on the card: the slip, the notice and the CSV name the buyer', async ({ page, browser, request }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: PHONE.width, height: PHONE.height });
  const buyerEmail = uniqueEmail('gift-payer');
  await addToCart(page, '/store/product/book-10-reasons');
  await page.goto('/checkout');
  await page.getByLabel('Email').fill(buyerEmail);
  await page.getByLabel('This is a gift').check();
  await page.getByLabel("Recipient's full name").fill('Lucy Recipient');
  // This buyer asks for the prices on the gift slip (a gift's slip has none otherwise).
  await page.getByLabel('Show the prices on the gift slip').check();
  await fillAddress(page, { line1: '12 Gift Lane', city: 'Parramatta', postcode: '2150' });
  await expect(page.getByRole('radio', { name: /AU Standard Courier/ })).toBeChecked();

  const payment = await payInNewTab(page);
  // The name on the card is the buyer's own: the page does not offer the recipient's.
  await expect(payment.getByLabel('Name on card')).toHaveValue('');
  await payment.getByLabel('Name on card').fill('Maria Rossi');
  await payment.getByRole('button', { name: /^Pay/ }).click();
  await expect(payment.getByRole('heading', { name: 'Order Confirmed!' })).toBeVisible();
  const number = (await payment.getByTestId('order-number').textContent())!;

  const emails = await readOutbox(OUTBOX);
  const confirmation = emails.find((e) => e.to === buyerEmail && e.subject.includes(`${number} is confirmed`));
  expect(confirmation?.text).toMatch(/^Hello Maria Rossi,$/m);
  const notice = emails.find((e) => e.subject.startsWith(`New order ${number}`));
  expect(notice?.text).toContain(`from Maria Rossi <${buyerEmail}> to Lucy Recipient (a gift).`);

  const publisher = uniqueEmail('buyer-publisher');
  await grantStaff(request, publisher);
  const staff = await browser.newPage({ viewport: { width: PHONE.width, height: PHONE.height } });
  await staffSignsIn(staff, publisher);
  // To pack: how it goes, where, and that it is a gift; the bulk-ship form names the parcel.
  await searchOrders(staff, number, number);
  const card = staff.getByRole('list', { name: 'Orders' }).getByRole('listitem').filter({ hasText: number });
  await expect(card.getByTestId('parcel-facts')).toHaveText('Standard · Australia · Gift');
  await card.getByRole('checkbox', { name: `Select order ${number}` }).check();
  await staff.getByRole('button', { name: 'Ship selected' }).click();
  await expect(staff.getByLabel(`Tracking number for order ${number}`)).toBeVisible();
  await expect(staff.getByText(`Tracking number for order ${number} — Lucy Recipient`)).toBeVisible();
  await lookAtBothWidths(staff, 'buyer-to-pack', { axe: false });
  await staff.getByRole('button', { name: 'All', exact: true }).click();
  await staff.getByRole('link', { name: number }).click();
  await expect(staff.getByRole('heading', { name: 'Gift for Lucy Recipient' })).toBeVisible();
  await expect(staff.getByText('Maria Rossi')).toBeVisible();
  await lookAtBothWidths(staff, 'buyer-order', { axe: false });

  await staff.getByRole('link', { name: 'Print packing slip' }).click();
  const slip = staff.getByRole('article', { name: `Gift slip ${number}` });
  await expect(slip.getByText('Lucy Recipient')).toBeVisible();
  await expect(slip.getByRole('heading', { name: 'A gift for you' })).toBeVisible();
  await expect(slip.getByTestId('gift-sender')).toHaveText('From Maria Rossi');
  // The buyer asked for the prices: the gift slip shows them. The address as Australia Post asks.
  await expect(slip.getByTestId('slip-total')).toContainText('Total paid $37.00 AUD');
  await expect(slip.getByText('PARRAMATTA NSW 2150')).toBeVisible();
  await lookAtBothWidths(staff, 'buyer-gift-slip', { axe: false });

  await staff.goto('/admin');
  await staff.getByRole('link', { name: 'Sales' }).click();
  await staff.getByRole('button', { name: 'Date range' }).click();
  await staff.getByLabel('From', { exact: true }).fill(sydneyToday());
  await staff.getByLabel('To', { exact: true }).fill(sydneyToday());
  const [download] = await Promise.all([staff.waitForEvent('download'), staff.getByRole('button', { name: 'Download CSV' }).click()]);
  const rows = await downloadedCsv(download);
  const header = rows[0]!;
  const mine = rows.filter((r) => r[header.indexOf('*InvoiceNumber')] === `Order ${number}`);
  expect(mine.length).toBeGreaterThan(0);
  for (const row of mine) {
    expect(row[header.indexOf('*ContactName')]).toBe('Maria Rossi');
    expect(row[header.indexOf('EmailAddress')]).toBe(buyerEmail);
    expect(row[header.indexOf('Reference')]).toBe('Deliver to Lucy Recipient');
  }
});
