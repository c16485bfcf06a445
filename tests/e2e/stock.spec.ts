/**
 * Stock with its story, each journey once on a product of its own, its screens looked at on a phone (375 px) and
 * a desktop (1280 px): sales through the real checkout
 * take a title below its low-stock level twice and the publisher gets one email; in /admin a delivery is added
 * with Received (+N) and the history shows it beside each sale, named by its order. A sold-out book offers
 * "Email me when it's available"; two shoppers leave their address and confirm it from their email, the
 * publisher sees them waiting and receives stock, each address gets exactly one email, and a second delivery
 * sends none.
 */
import { type APIRequestContext, expect as baseExpect, type Page, test } from '@playwright/test';
import { readOutbox } from '../../functions/_lib/providers/local-email';
import { availabilityConfirmation, confirmationTo, confirmWithoutPage, signUpsFrom } from './mailbox';
import { buysThroughCheckout, grantStaff, lookAtBothWidths, orderNumberOf, ownProduct, staffSignsIn, uniqueEmail, WIDTHS } from './support';

const OUTBOX = 'test-results/outbox.jsonl';
// Each back-office screen loads its data after the session and the staff check: allow for a busy machine.
const expect = baseExpect.configure({ timeout: 15_000 });

const [PHONE, DESKTOP] = WIDTHS;

/** A publisher on /admin's Stock section. */
async function publisherOnStock(page: Page, request: APIRequestContext): Promise<void> {
  const email = uniqueEmail('stock-keeper');
  await grantStaff(request, email);
  await staffSignsIn(page, email);
  await page.getByRole('link', { name: 'Stock', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Stock', exact: true })).toBeVisible();
}

test.describe('stock', () => {
  test.describe.configure({ timeout: 120_000 });

  test('two sales below the level send one low-stock email; a delivery is received (+N) and the history names each sale’s order', async ({ page, request }) => {
    await page.setViewportSize({ width: DESKTOP.width, height: DESKTOP.height });
    const book = await ownProduct(request, 'low', { stock: 12, low_stock_level: 10 });
    await buysThroughCheckout(request, book.id, 2, uniqueEmail('first-buyer')); // 12 → 10: at the level
    const crossing = await buysThroughCheckout(request, book.id, 2, uniqueEmail('second-buyer')); // 10 → 8: below
    const below = await buysThroughCheckout(request, book.id, 1, uniqueEmail('third-buyer')); // 8 → 7: still below
    const notices = (await readOutbox(OUTBOX)).filter((m) => m.subject === `Low stock: ${book.title}`);
    expect(notices).toHaveLength(1);
    expect(notices[0]!.text).toContain(`${book.title}: 8 left (low-stock level 10)`);
    const crossingNumber = await orderNumberOf(request, crossing);
    const belowNumber = await orderNumberOf(request, below);
    expect(notices[0]!.text).toContain(`Order ${crossingNumber} took a title below its low-stock level`);

    await publisherOnStock(page, request);
    const card = page.getByRole('region', { name: `Stock of ${book.title}` });
    await expect(card.getByText('In stock: 7')).toBeVisible();
    await expect(card.getByText('Low stock', { exact: true })).toBeVisible();

    // What is not a whole number of copies is refused with a reason, on the field itself; so is a missing reason.
    await card.getByLabel('Copies received').fill('0');
    await card.getByRole('button', { name: 'Received' }).click();
    await expect(card.getByLabel('Copies received')).toHaveAttribute('aria-invalid', 'true');
    await expect(card.getByLabel('Copies received')).toHaveAccessibleDescription('Copies received must be a whole number, 1 or more.');
    await card.getByLabel('Copies received').fill('30');
    await card.getByRole('button', { name: 'Received' }).click();
    await expect(card.getByLabel('Reason')).toHaveAccessibleDescription('Give a reason for the change.');
    await expect(card.getByLabel('Copies received')).not.toHaveAttribute('aria-invalid');
    await card.getByLabel('Reason').fill('Reprint delivered');

    await card.getByLabel('Copies received').fill('30');
    await card.getByRole('button', { name: 'Received' }).click();
    await expect(page.getByText(`${book.title}: 30 received, 37 in stock.`).first()).toBeVisible();
    await expect(card.getByText('In stock: 37')).toBeVisible();
    await expect(card.getByText('Low stock', { exact: true })).toHaveCount(0);

    await card.getByRole('button', { name: 'History' }).click();
    const history = card.getByRole('list', { name: 'Stock history, newest first' });
    const rows = history.getByRole('listitem');
    await expect(rows).toHaveCount(4);
    await expect(rows.nth(0)).toContainText('7 → 37');
    await expect(rows.nth(0)).toContainText('Reprint delivered');
    await expect(rows.nth(1)).toContainText('8 → 7');
    await expect(rows.nth(1)).toContainText(`Sold — order ${belowNumber}`);
    await expect(rows.nth(2)).toContainText('10 → 8');
    await expect(rows.nth(2)).toContainText(`Sold — order ${crossingNumber}`);
    await expect(rows.nth(3)).toContainText('12 → 10');
    await card.scrollIntoViewIfNeeded();
    await lookAtBothWidths(page, 'stock-history');

    // The sale's row opens its order.
    await rows
      .nth(2)
      .getByRole('link', { name: `order ${crossingNumber}`, exact: true })
      .click();
    await expect(page.getByRole('heading', { name: `Order ${crossingNumber}` })).toBeVisible();

    // Stock back at the level re-arms the alert, and no sale has crossed it since: still one email.
    expect((await readOutbox(OUTBOX)).filter((m) => m.subject === `Low stock: ${book.title}`)).toHaveLength(1);
  });

  test('“Email me when it’s available” on a sold-out book: two addresses confirm from their email, a delivery emails each once, a second delivery none', async ({ browser, page, request }) => {
    await page.setViewportSize({ width: PHONE.width, height: PHONE.height });
    const book = await ownProduct(request, 'back', { stock: 0 });
    const waiting = [uniqueEmail('waiting-one'), uniqueEmail('waiting-two')];
    for (const [i, email] of waiting.entries()) {
      const shopper = await browser.newPage({ viewport: { width: PHONE.width, height: PHONE.height } });
      // Each shopper signs up from an address of their own (see signUpElsewhere).
      await signUpsFrom(shopper, `127.0.6.${i + 1}`);
      await shopper.goto(`/store/product/${book.id}`);
      await expect(shopper.getByText('Out of Stock').first()).toBeVisible();
      const form = shopper.getByRole('form', { name: `Email me when ${book.title} is available` });
      await form.getByLabel('Email address').fill(email);
      await form.getByRole('button', { name: "Email me when it's available" }).click();
      await expect(form.getByText(`Almost done: please check your inbox at ${email} for the email we have sent you about ${book.title}.`)).toBeVisible();
      if (i === 0) await lookAtBothWidths(shopper, 'back-in-stock-form');
      await shopper.close();
      // The sign-up sent its confirmation and nothing else; each confirms from it (the page itself: mailing-consent.spec.ts).
      await confirmWithoutPage(request, await confirmationTo(email, availabilityConfirmation(book.title)));
    }

    await publisherOnStock(page, request);
    const card = page.getByRole('region', { name: `Stock of ${book.title}` });
    await expect(card.getByText('2 waiting to hear it is back')).toBeVisible();
    await lookAtBothWidths(page, 'stock-waiting', { axe: false });
    await card.getByLabel('Copies received').fill('5');
    await card.getByLabel('Reason').fill('Reprint delivered');
    await card.getByRole('button', { name: 'Received' }).click();
    await expect(page.getByText(`${book.title}: 5 received, 5 in stock; emailing 2 waiting shoppers.`).first()).toBeVisible();
    // The panel then sends the availability email in batches, as a newsletter.
    await expect(page.getByText('It has gone to everyone it was for.').first()).toBeVisible({ timeout: 30_000 });
    await expect(card.getByText('Nobody waiting to hear it is back')).toBeVisible();

    await card.getByLabel('Copies received').fill('3');
    await card.getByLabel('Reason').fill('Another box');
    await card.getByRole('button', { name: 'Received' }).click();
    await expect(page.getByText(`${book.title}: 3 received, 8 in stock.`).first()).toBeVisible();

    const mails = (await readOutbox(OUTBOX)).filter((m) => waiting.includes(m.to) && m.subject === `${book.title} is available`);
    expect(mails.map((m) => m.to).sort()).toEqual([...waiting].sort());
    for (const mail of mails) {
      expect(mail.text).toContain(`/store/product/${book.id}`);
      expect(mail.batchKey).toMatch(/^newsletter-[0-9a-f-]{36}-batch-\d+$/);
      expect(mail.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    }
  });
});
