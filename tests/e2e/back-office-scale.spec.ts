/**
 * The back office with more orders than a page holds, at 1280 and 375 px: 230 shipped orders written in two bulk
 * inserts through the service role, dated 2019 so they sit behind every other test's orders. All pages down to
 * the oldest of them with Load more orders, and a reload and Back from the order return to the same rows; a
 * search pages through its 230 matches; Customers pages and searches the same way; Sales for the last five years
 * by month and by year, by day refused on screen, and the period's CSV; a product's stock history past its first 50
 * changes.
 */
import { readFileSync } from 'node:fs';
import { expect as baseExpect, test, type APIRequestContext, type Page } from '@playwright/test';
import { quickPeriod } from '../../src/features/admin/sales-periods';
import { orderNumber, shopDay } from '../../src/lib/format';
import { asService, lookAtBothWidths, ownProduct, publisherSignsIn } from './support';

const expect = baseExpect.configure({ timeout: 15_000 });

const BOOK = { product_id: 'book-10-reasons', title: '10 Reasons Why Being Catholic is Awesome!', price_at_time: 22 };

/**
 * `count` paid orders of one copy each, `email(i)` and `paidAt(i)` apiece, written in one insert (and their lines
 * in another), as the checkout and the webhook would leave them. Answers their numbers in the order asked.
 */
async function seedOrders(request: APIRequestContext, count: number, email: (i: number) => string, paidAt: (i: number) => string): Promise<string[]> {
  const rows = Array.from({ length: count }, (_, i) => ({
    customer_email: email(i),
    customer_name: `Reader ${i}`,
    status: 'shipped',
    payment_status: 'paid',
    subtotal_amount: 22,
    shipping_amount: 15,
    total_amount: 37,
    shipping_address: { addressLine1: '7 Packer Lane', city: 'Parramatta', state: 'NSW', postalCode: '2150', country: 'AU' },
    shipping_method: { name: 'AU Standard Courier' },
    created_at: paidAt(i),
    paid_at: paidAt(i),
    checkout_session_id: `cs_e2e_scale_${Date.now()}_${i}_${Math.random().toString(36).slice(2)}`,
  }));
  const orders = await asService<Array<{ id: string; number: number; customer_email: string }>>(request, 'POST', 'orders', rows);
  await asService(
    request,
    'POST',
    'order_items',
    orders.map((o) => ({ order_id: o.id, ...BOOK, quantity: 1 })),
  );
  const byEmail = new Map(orders.map((o) => [o.customer_email, orderNumber(o.number)]));
  return rows.map((r) => byEmail.get(r.customer_email)!);
}

/** Clicks `Load more <what>` until `target` shows (or there is no more), at most `most` times. */
async function loadMoreUntil(page: Page, what: string, target: ReturnType<Page['getByRole']>, most = 60): Promise<number> {
  const more = page.getByRole('button', { name: `Load more ${what}` });
  for (let clicks = 0; clicks < most; clicks++) {
    // Either the row is there, or the button to fetch the next page is.
    await expect(target.or(more).first()).toBeVisible();
    if (await target.isVisible()) return clicks;
    await more.click();
  }
  throw new Error(`${what}: not reached after ${most} pages`);
}

const ORDERS = 230;

test.describe('the back office past its first page', () => {
  test.describe.configure({ timeout: 240_000 });

  test('All pages to an order older than the newest 200, and a reload and Back keep the rows; a search pages through its matches', async ({ browser, request }) => {
    const tag = `pg${Date.now().toString(36)}${test.info().retry}`;
    // A minute apart from 1 June 2019 back: older than any other test's orders, so theirs stay on their first pages.
    const start = Date.parse('2019-06-01T01:00:00Z');
    const numbers = await seedOrders(
      request,
      ORDERS,
      (i) => `${tag}-${i}@example.com`,
      (i) => new Date(start - i * 60_000).toISOString(),
    );
    const oldest = numbers[ORDERS - 1]!;

    const page = await publisherSignsIn(browser);
    await page.getByRole('button', { name: 'All', exact: true }).click();
    await expect(page).toHaveURL(/#orders\?view=all$/);
    const rows = page.getByRole('table').getByRole('row');
    await expect(rows).toHaveCount(51); // the header and the first 50
    const target = page.getByRole('link', { name: oldest, exact: true });
    const clicks = await loadMoreUntil(page, 'orders', target);
    expect(clicks, 'the oldest is past the newest 200').toBeGreaterThanOrEqual(4);
    expect(await rows.count()).toBeGreaterThan(ORDERS);
    await expect(page).toHaveURL(/#orders\?view=all(&after=[^&]+)+$/);

    // A reload shows the same rows, scrolled where they were: every page in the address is fetched again.
    await target.scrollIntoViewIfNeeded();
    // The list notes where it is scrolled to once scrolling pauses.
    await expect.poll(() => page.evaluate(() => window.history.state?.adminScroll === window.scrollY && window.scrollY > 5000)).toBe(true);
    await page.reload();
    await expect(target).toBeInViewport();
    await expect(page.getByRole('button', { name: 'All', exact: true })).toHaveAttribute('aria-pressed', 'true');
    // The order, then Back: the list as it was.
    await target.click();
    await expect(page.getByRole('heading', { name: new RegExp(oldest) })).toBeVisible();
    await page.goBack();
    await expect(target).toBeInViewport();

    // A search pages too: its 230 matches, 50 at a time, the last page without Load more.
    await page.getByLabel('Search by order number or email').fill(tag);
    await expect(page).toHaveURL(new RegExp(`#orders\\?view=all&q=${tag}$`));
    await expect(rows).toHaveCount(51);
    for (const shown of [100, 150, 200, ORDERS]) {
      await page.getByRole('button', { name: 'Load more orders' }).click();
      await expect(rows).toHaveCount(shown + 1);
    }
    await expect(page.getByRole('button', { name: 'Load more orders' })).toHaveCount(0);
    await expect(target).toBeVisible();
    await lookAtBothWidths(page, 'orders-paged');

    // On a phone: cards, paged the same way, from a fresh load of the address.
    await page.setViewportSize({ width: 375, height: 812 });
    await page.reload();
    const cards = page.getByRole('list', { name: 'Orders' }).getByRole('listitem');
    await expect(cards).toHaveCount(ORDERS);
    await expect(page.getByRole('list', { name: 'Orders' }).getByRole('link', { name: oldest, exact: true })).toBeVisible();

    // One order by its number, as read from its slip over the phone: that order alone.
    await page.getByLabel('Search by order number or email').fill(`#${oldest}`);
    await expect(cards).toHaveCount(1);
    await expect(cards.getByRole('link', { name: oldest, exact: true })).toBeVisible();
  });

  test('Customers page through everyone and search by email, the pages kept in the address', async ({ browser, request }) => {
    const tag = `cu${Date.now().toString(36)}${test.info().retry}`;
    const start = Date.parse('2019-03-01T01:00:00Z');
    await seedOrders(
      request,
      ORDERS,
      (i) => `${tag}-${i}@example.com`,
      (i) => new Date(start - i * 60_000).toISOString(),
    );
    const page = await publisherSignsIn(browser);
    await page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Customers' }).click();
    await expect(page.getByRole('heading', { name: 'Customers', exact: true })).toBeVisible();
    const customers = page.getByRole('list', { name: 'Customers' }).getByRole('listitem');
    await expect(customers).toHaveCount(50);
    await expect(page.getByText('50 customers shown, most recent order first.')).toBeVisible();
    await page.getByRole('button', { name: 'Load more customers' }).click();
    await expect(customers).toHaveCount(100);

    await page.getByLabel('Search by name or email').fill(tag);
    await expect(page).toHaveURL(new RegExp(`#customers\\?q=${tag}$`));
    await expect(customers).toHaveCount(50);
    // The oldest buyer of the 230 is on the last page.
    const last = page.getByRole('link', { name: `Reader ${ORDERS - 1}`, exact: true });
    await loadMoreUntil(page, 'customers', last);
    await expect(customers).toHaveCount(ORDERS);
    await expect(page.getByText(`${ORDERS} customers, most recent order first.`)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Load more customers' })).toHaveCount(0);
    await lookAtBothWidths(page, 'customers-paged');

    // The customer, then Back: the same 230.
    await last.click();
    await expect(page.getByRole('heading', { name: `Reader ${ORDERS - 1}` })).toBeVisible();
    await page.goBack();
    await expect(customers).toHaveCount(ORDERS);
    await expect(page.getByLabel('Search by name or email')).toHaveValue(tag);
    // Back again: the list before the search, with the pages it had.
    await page.goBack();
    await expect(page.getByLabel('Search by name or email')).toHaveValue('');
    await expect(customers).toHaveCount(100);
  });

  test('Sales for the last five years by month and by year; by day is not offered for them; the CSV holds the orders', async ({ browser, request }) => {
    // A month no other test writes to (nor the first attempt, for a retry).
    const month = test.info().retry === 0 ? '2025-03' : '2025-09';
    const tag = `sa${Date.now().toString(36)}`;
    const numbers = await seedOrders(
      request,
      3,
      (i) => `${tag}-${i}@example.com`,
      (i) => `${month}-1${i}T01:00:00.000Z`,
    );
    const five = quickPeriod('last_5_years', shopDay());
    const firstYear = Number(five.from.slice(0, 4));

    const page = await publisherSignsIn(browser);
    await page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Sales' }).click();
    await expect(page.getByRole('heading', { name: 'Sales', exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Last 5 years' }).click();
    await expect(page.getByTestId('sales-period')).toHaveText(`1 January ${firstYear} to 31 December ${firstYear + 4}`);
    // Five years by day would be 1,826 rows: By day is off, and the figures come by month.
    await expect(page.getByRole('button', { name: 'By day' })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'By week' })).toBeDisabled();
    await expect(page.getByText('By day is for periods of up to 92 days, by week up to 366: this one is shown by month.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'By month' })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('heading', { name: 'By month' })).toBeVisible();
    const byMonth = page.getByRole('region', { name: 'By month' }).getByRole('row');
    await expect(byMonth).toHaveCount(1 + 60);
    const monthName = new Intl.DateTimeFormat('en-AU', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${month}-01T00:00:00Z`));
    const monthRow = page.getByRole('row', { name: new RegExp(`^${monthName} `) });
    await expect(monthRow.getByRole('cell').first()).toHaveText('3');
    await lookAtBothWidths(page, 'sales-five-years-by-month');

    await page.getByRole('button', { name: 'By year' }).click();
    await expect(page.getByRole('heading', { name: 'By year' })).toBeVisible();
    const byYear = page.getByRole('region', { name: 'By year' }).getByRole('row');
    await expect(byYear).toHaveCount(1 + 5);
    await expect(byYear.nth(1).getByRole('rowheader')).toHaveText(String(firstYear));
    await expect(byYear.nth(5).getByRole('rowheader')).toHaveText(String(firstYear + 4));
    await lookAtBothWidths(page, 'sales-five-years-by-year');

    // Back to a month: by day again.
    await page.getByRole('button', { name: 'This month' }).click();
    await expect(page.getByRole('button', { name: 'By day' })).toBeEnabled();

    // The five years' CSV, fetched a page of orders at a time, holds the three orders.
    await page.getByRole('button', { name: 'Last 5 years' }).click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toBe(`sales-${five.from}-to-${five.to}.csv`);
    const csv = readFileSync(await download.path(), 'utf8');
    expect(csv.startsWith('"*ContactName"')).toBe(true);
    for (const number of numbers) expect(csv).toContain(`"Order ${number}"`);
  });

  test('a stock history pages past its first 50 changes, and a reload keeps it open with its pages', async ({ browser, request }) => {
    const book = await ownProduct(request, 'history', { stock: 60 });
    // 60 counts, 0 → 1 up to 59 → 60, in one insert.
    await asService(
      request,
      'POST',
      'stock_changes',
      Array.from({ length: 60 }, (_, i) => ({ product_id: book.id, previous_stock: i, new_stock: i + 1, reason: `Count ${i + 1}`, actor: 'publisher@example.com' })),
    );
    const page = await publisherSignsIn(browser);
    await page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Stock' }).click();
    const card = page.getByRole('region', { name: `Stock of ${book.title}` });
    await card.getByRole('button', { name: 'History' }).click();
    const rows = card.getByRole('list', { name: 'Stock history, newest first' }).getByRole('listitem');
    await expect(rows).toHaveCount(50);
    await expect(rows.nth(0)).toContainText('59 → 60');
    await card.getByRole('button', { name: 'Load more changes' }).click();
    await expect(rows).toHaveCount(60);
    await expect(rows.nth(59)).toContainText('0 → 1');
    await expect(card.getByRole('button', { name: 'Load more changes' })).toHaveCount(0);

    await page.reload();
    await expect(rows).toHaveCount(60);
    await expect(card.getByRole('button', { name: 'Hide history' })).toHaveAttribute('aria-expanded', 'true');
    await card.scrollIntoViewIfNeeded();
    await lookAtBothWidths(page, 'stock-history-paged');
  });
});
