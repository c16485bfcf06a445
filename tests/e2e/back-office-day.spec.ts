/**
 * The publisher's day beyond a single order, at 1280 and 375 px: a week of orders (paid, shipped and refunded in
 * part, refunded in full, one to the UK, an unpaid attempt) seeded through the service role; Sales for that week checked against
 * the sums worked out by hand here, and its CSV opened; Customers and a customer's orders; packing slips for three
 * orders printed to PDF (three A4 pages, no blank one); the orders list as cards on a phone; and the header's
 * Back office link for staff only.
 */
import { readFileSync } from 'node:fs';
import { expect as baseExpect, test, type APIRequestContext } from '@playwright/test';
import { parse as parseYaml } from 'yaml';
import { readOutbox } from '../../functions/_lib/providers/local-email';
import { scanPage } from '../audit/accessibility';
import { quickPeriod } from '../../src/features/admin/sales-periods';
import { shopDay } from '../../src/lib/format';
import { asksThenKeeps, asService, downloadedCsv, orderNumberOf, publisherSignsIn, uniqueEmail } from './support';

const expect = baseExpect.configure({ timeout: 15_000 });

interface Seed {
  email: string;
  name: string;
  country: string;
  paidAt: string | null;
  status: string;
  payment: string;
  copies: number;
  shipping: number;
  refunded?: boolean;
  /** A part refund settled on the order, as /admin's Refund part leaves it. */
  partRefund?: number;
  phone?: string;
  address?: Record<string, string>;
}

/** One order with its line of the book at $22, written as the checkout and the webhook would leave it. */
async function seedOrder(request: APIRequestContext, seed: Seed): Promise<string> {
  const subtotal = 22 * seed.copies;
  const [order] = await asService<Array<{ id: string }>>(request, 'POST', 'orders', {
    customer_email: seed.email,
    customer_name: seed.name,
    status: seed.status,
    payment_status: seed.payment,
    subtotal_amount: subtotal,
    shipping_amount: seed.shipping,
    total_amount: subtotal + seed.shipping,
    shipping_address: seed.address ?? { addressLine1: '7 Packer Lane', city: 'Parramatta', state: 'NSW', postalCode: '2150', country: seed.country, ...(seed.phone && { phone: seed.phone }) },
    shipping_method: { name: seed.country === 'AU' ? 'AU Standard Courier' : 'International Standard' },
    paid_at: seed.paidAt,
    ...(seed.paidAt && { checkout_session_id: `cs_e2e_${Date.now()}_${Math.random().toString(36).slice(2)}` }),
    ...(seed.refunded && { refund_id: `re_e2e_${Date.now()}`, refunded_at: seed.paidAt }),
  });
  await asService(request, 'POST', 'order_items', { order_id: order!.id, product_id: 'book-10-reasons', title: '10 Reasons Why Being Catholic is Awesome!', quantity: seed.copies, price_at_time: 22 });
  if (seed.partRefund) {
    const reserved = await asService<{ refund_id: string }>(request, 'POST', 'rpc/begin_part_refund', {
      p_order_id: order!.id,
      p_amount: seed.partRefund,
      p_reason: 'Bent corner',
      p_actor: 'publisher@example.com',
    });
    await asService(request, 'POST', 'rpc/settle_part_refund', { p_refund_id: reserved.refund_id, p_provider_refund_id: `re_e2e_part_${Date.now()}`, p_failure: null });
  }
  return order!.id;
}

/** A week of orders from `start` (a Monday, Sydney time): four paid in the week, one the week after, one unpaid attempt. */
async function seedWeek(request: APIRequestContext, tag: string, start = '2026-03-02') {
  // 01:00 UTC is 11:00 or 12:00 in Sydney: the same Sydney day whatever the season.
  const day = (n: number) => new Date(Date.parse(`${start}T01:00:00Z`) + n * 86_400_000).toISOString();
  const who = (name: string) => ({ email: uniqueEmail(`${tag}-${name}`), name: `${name} ${tag}` });
  const ann = who('Ann');
  const ids = {
    paid: await seedOrder(request, { ...ann, country: 'AU', paidAt: day(0), status: 'processing', payment: 'paid', copies: 2, shipping: 15 }),
    shipped: await seedOrder(request, { ...who('Bob'), country: 'AU', paidAt: day(1), status: 'shipped', payment: 'paid', copies: 1, shipping: 15, partRefund: 5 }),
    uk: await seedOrder(request, {
      ...who('Clare'),
      country: 'GB',
      paidAt: day(2),
      status: 'processing',
      payment: 'paid',
      copies: 1,
      shipping: 25,
      address: { addressLine1: '12 Abbey Road', city: 'London', postalCode: 'NW8 9AY', country: 'GB', phone: '+44 20 7946 0000' },
    }),
    refunded: await seedOrder(request, { ...who('Dan'), country: 'AU', paidAt: day(3), status: 'cancelled', payment: 'refund_due', copies: 1, shipping: 15, refunded: true }),
    // Ann again, a week later: the same customer, a second order outside the week.
    later: await seedOrder(request, {
      ...ann,
      email: ann.email.toUpperCase(),
      country: 'AU',
      paidAt: day(10),
      status: 'processing',
      payment: 'paid',
      copies: 1,
      shipping: 15,
      phone: '0412 345 678',
    }),
    attempt: await seedOrder(request, { ...who('Eve'), country: 'AU', paidAt: null, status: 'pending', payment: 'unpaid', copies: 3, shipping: 15 }),
  };
  // Each order's number, as the database gave it.
  const numbers = new Map(await Promise.all(Object.values(ids).map(async (id) => [id, await orderNumberOf(request, id)] as const)));
  return { ids, ann, number: (id: string) => numbers.get(id)! };
}

const money = (n: number) => `$${n.toFixed(2)}`;

test.describe('the publisher’s day in the back office', () => {
  test.describe.configure({ timeout: 180_000 });

  test('Sales for a week match the orders summed by hand; the CSV opens in Xero’s layout; Customers list and open each customer', async ({ browser, request }) => {
    const tag = `s${Date.now().toString(36)}`;
    // A week of its own, Monday to Sunday, that no other test (nor a retry of this one) writes to.
    const monday = new Date(Date.UTC(2020, 0, 6) + Math.floor(Math.random() * 250) * 7 * 86_400_000);
    const isoDay = (n: number) => new Date(monday.getTime() + n * 86_400_000).toISOString().slice(0, 10);
    const longDay = (n: number) => new Intl.DateTimeFormat('en-AU', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(monday.getTime() + n * 86_400_000));
    const { ann } = await seedWeek(request, tag, isoDay(0));
    // By hand: four paid orders in the week (the unpaid attempt and the later order are not in it).
    const goods = 44 + 22 + 22 + 22;
    const shipping = 15 + 15 + 25 + 15;
    const refunds = 22 + 15 + 5; // Dan's order in full, $5 of Bob's in part
    const net = goods + shipping - refunds;
    const gst = Math.round(((59 + 32) / 11) * 100) / 100; // Australian orders kept: 59 + (37 - 5); the UK order is GST-free

    const page = await publisherSignsIn(browser);
    await page.getByRole('link', { name: 'Sales' }).click();
    await expect(page.getByRole('heading', { name: 'Sales', exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Date range' }).click();
    await page.getByLabel('From', { exact: true }).fill(isoDay(0));
    await page.getByLabel('To', { exact: true }).fill(isoDay(6));
    await expect(page.getByTestId('sales-period')).toHaveText(`${longDay(0)} to ${longDay(6)}`);
    await expect(page.getByTestId('sales-orders')).toHaveText('4');
    await expect(page.getByTestId('sales-copies')).toHaveText(String(2 + 1 + 1));
    await expect(page.getByTestId('sales-goods')).toHaveText(money(goods));
    await expect(page.getByTestId('sales-shipping')).toHaveText(money(shipping));
    await expect(page.getByTestId('sales-refunds')).toHaveText(money(refunds));
    await expect(page.getByTestId('sales-net')).toHaveText(money(net));
    await expect(page.getByTestId('sales-gst')).toHaveText(money(gst));
    await expect(page.getByTestId('sales-exports')).toHaveText(money(47));
    await expect(page.getByRole('img', { name: /Net takings by day/ })).toBeVisible();
    const byDay = page.getByRole('table').filter({ has: page.getByRole('columnheader', { name: 'Day' }) });
    const wednesday = new Intl.DateTimeFormat('en-AU', { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(new Date(monday.getTime() + 2 * 86_400_000));
    await expect(byDay.getByRole('row', { name: new RegExp(`^${wednesday}`) })).toContainText(money(47));
    await expect(byDay.getByRole('row')).toHaveCount(1 + 7);
    await expect(page.getByRole('row', { name: /10 Reasons Why Being Catholic is Awesome!/ })).toContainText('4');
    await page.screenshot({ path: test.info().outputPath('sales-1280.png'), fullPage: true });
    expect(await scanPage(page), 'axe on Sales at 1280 px').toEqual([]);
    // The period is kept in the address: a reload shows the same week, and Back the period chosen before it.
    await page.reload();
    await expect(page.getByTestId('sales-period')).toHaveText(`${longDay(0)} to ${longDay(6)}`);
    await expect(page.getByRole('button', { name: 'Date range' })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByLabel('From', { exact: true })).toHaveValue(isoDay(0));
    await expect(page.getByTestId('sales-orders')).toHaveText('4');
    await page.getByRole('button', { name: 'By week' }).click();
    await expect(page.getByRole('button', { name: 'By week' })).toHaveAttribute('aria-pressed', 'true');
    await page.goBack();
    await expect(page.getByRole('button', { name: 'By day' })).toHaveAttribute('aria-pressed', 'true');
    await page.goBack();
    await expect(page.getByRole('button', { name: 'This month' })).toHaveAttribute('aria-pressed', 'true');
    await page.goForward();
    await expect(page.getByTestId('sales-period')).toHaveText(`${longDay(0)} to ${longDay(6)}`);
    // An address edited by hand to a day the calendar has not: the screen's own sentence, nothing asked of the database.
    await page.goto('/admin#sales?period=range&from=2026-02-31&to=2026-03-05');
    await expect(page.getByRole('alert').filter({ hasText: 'Choose a start date and an end date.' })).toBeVisible();
    await expect(page.getByTestId('sales-period')).toHaveText('Choose a period');
    await page.goBack();
    await expect(page.getByTestId('sales-period')).toHaveText(`${longDay(0)} to ${longDay(6)}`);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toBe(`sales-${isoDay(0)}-to-${isoDay(6)}.csv`);
    const rows = await downloadedCsv(download);
    const header = rows[0]!;
    expect(header.slice(0, 3)).toEqual(['*ContactName', 'EmailAddress', 'POAddressLine1']);
    const col = (name: string) => header.indexOf(name);
    // Each invoice's lines add up to what the shop kept, and all of them to the week's net takings.
    const total = rows.slice(1).reduce((sum, r) => sum + Number(r[col('*Quantity')]) * Number(r[col('*UnitAmount')]), 0);
    expect(Math.round(total * 100) / 100).toBe(net);
    expect(new Set(rows.slice(1).map((r) => r[col('*InvoiceNumber')]))).toHaveProperty('size', 4);
    expect(
      rows
        .slice(1)
        .filter((r) => r[col('*TaxType')] === 'GST Free Income')
        .map((r) => r[col('POCountry')]),
    ).toEqual(['United Kingdom', 'United Kingdom']);
    const refundLines = rows.slice(1).filter((r) => Number(r[col('*UnitAmount')]) < 0);
    expect(refundLines.map((r) => Number(r[col('*UnitAmount')])).sort((a, b) => a - b)).toEqual([-37, -5]);
    expect(rows.every((r) => r.length === header.length)).toBe(true);

    await page.getByRole('link', { name: 'Customers' }).click();
    await page.getByLabel('Search by name or email').fill(tag);
    const list = page.getByRole('list', { name: 'Customers' });
    await expect(list.getByRole('listitem')).toHaveCount(4);
    const annRow = list.getByRole('listitem').filter({ hasText: ann.email.toLowerCase() });
    await expect(annRow).toContainText('2 orders');
    await expect(annRow).toContainText(`${money(59 + 37)} spent`);
    await expect(annRow).toContainText('Guest');
    await expect(list.getByRole('listitem').filter({ hasText: 'Dan' })).toContainText(`${money(0)} spent`);
    await page.screenshot({ path: test.info().outputPath('customers-1280.png'), fullPage: true });
    await annRow.getByRole('link', { name: ann.name }).click();
    await expect(page.getByRole('heading', { name: ann.name })).toBeVisible();
    await expect(page.getByRole('table').getByRole('row')).toHaveCount(1 + 2);
    await page.setViewportSize({ width: 375, height: 800 });
    await expect(page.getByRole('list', { name: 'Orders' }).getByRole('listitem')).toHaveCount(2);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.getByRole('link', { name: 'Sales' }).click();
    await expect(page.getByTestId('sales-orders')).toBeVisible();
    // The quick periods count Sydney days: the last 7 days end today in Sydney, this week starts on its Monday.
    const fullDay = (day: string) => new Intl.DateTimeFormat('en-AU', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`));
    for (const [label, choice] of [
      ['Last 7 days', 'last_7_days'],
      ['This week', 'this_week'],
    ] as const) {
      await page.getByRole('button', { name: label }).click();
      await expect(page.getByRole('button', { name: label })).toHaveAttribute('aria-pressed', 'true');
      const { from, to } = quickPeriod(choice, shopDay());
      await expect(page.getByTestId('sales-period')).toHaveText(`${fullDay(from)} to ${fullDay(to)}`);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.screenshot({ path: test.info().outputPath('sales-375.png'), fullPage: true });
    expect(await scanPage(page), 'axe on Sales at 375 px').toEqual([]);
    await page.getByRole('link', { name: 'Customers' }).click();
    await page.getByLabel('Search by name or email').fill(tag);
    await expect(page.getByRole('list', { name: 'Customers' }).getByRole('listitem')).toHaveCount(4);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.screenshot({ path: test.info().outputPath('customers-375.png'), fullPage: true });
    expect(await scanPage(page), 'axe on Customers at 375 px').toEqual([]);
  });

  test('three packing slips and the UK order’s customs declaration print on four A4 pages, no blank one: the country in full, the phone, the return address', async ({ browser, request }) => {
    const tag = `p${Date.now().toString(36)}`;
    const { ids, number } = await seedWeek(request, tag);
    const page = await publisherSignsIn(browser);
    const chosen = [ids.paid, ids.uk, ids.later];
    await page.goto(`/admin/packing-slip?order=${chosen.join(',')}`);
    const slips = page.getByRole('article', { name: /^Packing slip / });
    await expect(slips).toHaveCount(3);
    const uk = page.getByRole('article', { name: `Packing slip ${number(ids.uk)}` });
    await expect(uk.getByText('United Kingdom', { exact: true })).toBeVisible();
    await expect(uk.getByText('Phone: +44 20 7946 0000')).toBeVisible();
    await expect(uk.getByText('From (return address)')).toBeVisible();
    await expect(uk.getByTestId('return-address')).toContainText('Awesome Catholic Kids Publishing');
    // Every line of the return address in the site settings, the street line included.
    const { returnAddress } = parseYaml(readFileSync('content/site/settings.yaml', 'utf8')) as { returnAddress: string[] };
    for (const line of returnAddress) await expect(uk.getByTestId('return-address').getByText(line, { exact: true })).toBeVisible();
    await expect(page.getByRole('article', { name: `Packing slip ${number(ids.later)}` }).getByText('Phone: 0412 345 678')).toBeVisible();
    await expect(
      page
        .getByRole('article', { name: `Packing slip ${number(ids.paid)}` })
        .getByText('Australia', { exact: true })
        .first(),
    ).toBeVisible();
    // The parcel to the UK needs its customs declaration, a page of its own after its slip.
    await expect(page.getByRole('article', { name: /^Customs declaration / })).toHaveCount(1);
    await expect(page.getByRole('article', { name: `Customs declaration ${number(ids.uk)}` }).getByText('4903.00')).toBeVisible();
    const pdf = await page.pdf({ format: 'A4', preferCSSPageSize: true });
    const pages = pdf.toString('latin1').match(/\/Type\s*\/Page(?!s)/g) ?? [];
    expect(pages).toHaveLength(4);
  });

  test('on a phone the orders are cards with nothing cut off; staff get a Back office link with the count to pack, shoppers none', async ({ browser, request }) => {
    const tag = `m${Date.now().toString(36)}`;
    await seedWeek(request, tag);
    const page = await publisherSignsIn(browser, { width: 375, height: 800 });
    await page.getByLabel('Search by order number or email').fill(tag);
    const cards = page.getByRole('list', { name: 'Orders' }).getByRole('listitem');
    await expect(cards).toHaveCount(3); // To pack: Ann's two paid orders and the UK order
    await page.getByRole('button', { name: 'All', exact: true }).click();
    await expect(cards).toHaveCount(5);
    await expect(cards.first()).toContainText('$');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    // Nothing in a card runs past its edge; a long address may wrap only after its @ or a dot.
    const overflowing = await page.evaluate(() => [...document.querySelectorAll('[aria-label="Orders"] li *')].filter((el) => el.scrollWidth > el.clientWidth + 1).length);
    expect(overflowing).toBe(0);
    await page.screenshot({ path: test.info().outputPath('orders-375.png'), fullPage: true });
    expect(await scanPage(page), 'axe on the orders at 375 px').toEqual([]);

    await page.goto('/');
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menuLink = page.getByRole('dialog', { name: 'Menu' }).getByRole('link', { name: /^Back office/ });
    await expect(menuLink).toBeVisible();
    await expect(menuLink).toHaveAccessibleName(/^Back office\s*\d+ orders? to pack$/);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.keyboard.press('Escape');
    const headerLink = page.getByRole('banner').getByRole('link', { name: /^Back office/ });
    await expect(headerLink).toBeVisible();
    await headerLink.click();
    await expect(page).toHaveURL(/\/admin$/);

    const shopper = await browser.newPage();
    await shopper.goto('/auth');
    await shopper.getByRole('button', { name: 'Continue with Google' }).click();
    await shopper.getByLabel('Email').fill(uniqueEmail('shopper'));
    await shopper.getByLabel('Name').fill('A Shopper');
    await shopper.getByRole('button', { name: 'Continue' }).click();
    await expect(shopper).toHaveURL(/\/$/);
    await expect(
      shopper
        .getByRole('banner')
        .getByRole('link', { name: 'Sign Out' })
        .or(shopper.getByRole('banner').getByRole('button', { name: 'Sign Out' })),
    ).toBeVisible();
    await expect(shopper.getByRole('link', { name: /^Back office/ })).toHaveCount(0);
  });

  test('an order is fixed: an internal note, the delivery address corrected before shipping, delivered only when confirmed and undone', async ({ browser, request }) => {
    const tag = `f${Date.now().toString(36)}`;
    const { ids, number } = await seedWeek(request, tag);
    const page = await publisherSignsIn(browser, { width: 375, height: 800 });
    await page.goto(`/admin#order/${ids.uk}`);
    await expect(page.getByRole('heading', { name: `Order ${number(ids.uk)}` })).toBeVisible();

    await page.getByLabel('Internal note (the customer never sees it)').fill('Gift: no invoice in the parcel');
    await page.getByRole('button', { name: 'Save note' }).click();
    await expect(page.getByText('Note saved.').first()).toBeVisible();
    await expect(page.getByText(/note changed \(Gift: no invoice in the parcel\) by publisher-/)).toBeVisible();

    await page.getByRole('button', { name: 'Edit delivery address' }).click();
    await page.getByLabel('Address line 1').fill('3 Abbey Road');
    await page.getByLabel('Postcode').fill('NW8 9AZ');
    await page.getByRole('button', { name: 'Save address' }).click();
    await expect(page.getByText('Delivery address changed; the old one is in the history.').first()).toBeVisible();
    await expect(page.getByText('3 Abbey Road')).toBeVisible();
    // As Royal Mail writes it: the post town, then the postcode on its own line.
    await expect(page.getByText('LONDON', { exact: true })).toBeVisible();
    await expect(page.getByText('NW8 9AZ', { exact: true })).toBeVisible();
    await expect(page.getByText(/address changed \(was: 12 Abbey Road, London NW8 9AY, GB\)/)).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

    await page.goto(`/admin#order/${ids.shipped}`);
    await expect(page.getByRole('button', { name: 'Edit delivery address' })).toHaveCount(0);
    // By keyboard: the question takes focus as it opens, and Not yet gives it back to the button that asked.
    await asksThenKeeps(page, page.getByRole('button', { name: 'Mark as delivered' }), page.getByRole('button', { name: 'Confirm delivered' }));
    await expect(page.getByText(/^shipped$/i).first()).toBeVisible();
    await page.getByRole('button', { name: 'Mark as delivered' }).click();
    await page.getByRole('button', { name: 'Confirm delivered' }).click();
    await expect(page.getByText(/marked as delivered\./).first()).toBeVisible();
    // Mark as delivered went with the change it made: focus is on the order's heading, not lost to the page.
    await expect(page.getByRole('heading', { level: 2, name: /^Order / })).toBeFocused();
    await page.getByRole('button', { name: 'Undo delivered' }).click();
    await expect(page.getByText('Order back to shipped.').first()).toBeVisible();
    await expect(page.getByRole('button', { name: 'Mark as delivered' })).toBeVisible();
    await expect(page.getByText(/delivery undone by publisher-/)).toBeVisible();
  });

  test('three orders packed and shipped in one go: their slips and the UK order’s customs declaration together on four A4 pages, a tracking number each in one form', async ({ browser, request }) => {
    const tag = `b${Date.now().toString(36)}`;
    const { ids, number } = await seedWeek(request, tag);
    const page = await publisherSignsIn(browser);
    await page.getByLabel('Search by order number or email').fill(tag);
    const toPack = [ids.paid, ids.uk, ids.later];
    for (const id of toPack) await page.getByRole('checkbox', { name: `Select order ${number(id)}`, exact: true }).check();
    await expect(page.getByText('3 orders selected')).toBeVisible();
    const slips = page.getByRole('link', { name: 'Print their packing slips' });
    expect(new URL((await slips.getAttribute('href'))!, 'http://x').searchParams.get('order')!.split(',').sort()).toEqual([...toPack].sort());

    const printed = await browser.newPage({ storageState: await page.context().storageState() });
    await printed.goto((await slips.getAttribute('href'))!);
    await expect(printed.getByRole('article', { name: /^Packing slip / })).toHaveCount(3);
    await expect(printed.getByRole('article', { name: /^Customs declaration / })).toHaveCount(1);
    expect((await printed.pdf({ format: 'A4', preferCSSPageSize: true })).toString('latin1').match(/\/Type\s*\/Page(?!s)/g)).toHaveLength(4);
    await printed.close();

    await page.getByRole('button', { name: 'Ship selected' }).click();
    const numbers = ['33AAA0000001', 'RR123456789AU', '33AAA0000003'];
    for (const [i, id] of toPack.entries()) await page.getByLabel(`Tracking number for order ${number(id)}`).fill(numbers[i]!);
    await page.getByRole('button', { name: 'Confirm shipments' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Nothing was shipped: correct the tracking numbers marked above.' })).toBeVisible();
    await expect(page.getByText('RR123456789AU is not a valid international tracking number')).toBeVisible();
    await page.getByLabel(`Tracking number for order ${number(ids.uk)}`).fill('RR123456785AU');
    await page.getByRole('button', { name: 'Confirm shipments' }).click();
    await expect(page.getByRole('status').filter({ hasText: '3 of 3 shipped; each customer has been emailed their tracking number.' })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText('No orders here.')).toBeVisible();
    await page.getByRole('button', { name: 'Shipped', exact: true }).click();
    for (const id of toPack) await expect(page.getByRole('link', { name: number(id), exact: true })).toBeVisible();
    const mails = (await readOutbox('test-results/outbox.jsonl')).filter((m) => m.to.toLowerCase().includes(tag) && /has shipped$/.test(m.subject));
    expect(mails.map((m) => m.text.match(/Tracking number: (\S+)/)?.[1]).sort()).toEqual(['33AAA0000001', '33AAA0000003', 'RR123456785AU']);
  });
});
