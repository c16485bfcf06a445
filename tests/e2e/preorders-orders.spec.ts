/**
 * A title on pre-order, from payment to release, as the publisher sees it: a guest pre-orders it and pays on the
 * local payment page; the order waits under Pre-orders, not To pack; a title without its customs data is warned of
 * (with no buyer abroad, and then with one) and refused; Release now with the first delivery moves it to To pack and the buyer has
 * the "being packed" email; a second tab on Pre-orders shows the first tab's changes
 * when it is looked at again. Once at each width, the phone's and the desktop's, with the Pre-orders screen looked
 * at (and photographed) at both.
 */
import { expect, type Page, test } from '@playwright/test';
import { OUTBOX, mailsTo } from './mailbox';
import { ADDRESS_ABROAD, asksThenKeeps, asService, buysThroughCheckout, grantStaff, lookAtBothWidths, orderNumberOf, ownProduct, staffSignsIn, uniqueEmail, WIDTHS } from './support';

/**
 * The publisher comes back to a tab or window: brought to the front, and the window's focus event, which a click
 * into a window beside the other fires (the headless browser's windows all count as shown and focused).
 */
async function looksAgain(page: Page): Promise<void> {
  await page.bringToFront();
  await page.evaluate(() => window.dispatchEvent(new FocusEvent('focus')));
}

for (const size of WIDTHS) {
  test(`at ${size.width} px: a paid pre-order waits under Pre-orders, and Release now sends it to To pack and emails the buyer`, async ({ page, request }) => {
    // The publisher's whole journey, two tabs and three releases pressed: a minute on a quiet machine.
    test.setTimeout(180_000);
    await page.setViewportSize({ width: size.width, height: size.height });
    const book = await ownProduct(request, `preorder-${size.name}`, { stock: 0, release_date: '2099-06-01', preorder_allocation: 5 });
    const buyer = uniqueEmail('preorder-buyer');
    const orderId = await buysThroughCheckout(request, book.id, 2, buyer);
    const number = await orderNumberOf(request, orderId);
    const publisher = uniqueEmail('preorder-publisher');
    await grantStaff(request, publisher);
    await staffSignsIn(page, publisher);

    await page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Pre-orders' }).click();
    const title = page.getByRole('region', { name: `Pre-orders of ${book.title}` });
    // The title has no customs data yet (its book file may leave it out until the day): with no order abroad it
    // still cannot be released, as once out it is sold abroad.
    await expect(title.getByRole('alert')).toHaveText(
      `Add customsDescription, hsCode and originCountry to content/books/${book.id}.mdx and deploy before the release: once out, it is sold abroad, where a parcel must declare them. Until then it cannot be released.`,
    );
    // A buyer abroad too.
    const abroad = uniqueEmail('preorder-abroad');
    await buysThroughCheckout(request, book.id, 1, abroad, ADDRESS_ABROAD);
    const customs = `1 pre-order goes abroad: add customsDescription, hsCode and originCountry to content/books/${book.id}.mdx and deploy, as a parcel abroad must declare them.`;
    await page.reload();
    await expect(title).toContainText('Out 1 June 2099');
    await expect(title).toContainText('Pre-ordered: 3 of 5 (2 left)');
    // Warned ahead of the day: the release would be refused.
    await expect(title.getByRole('alert')).toHaveText(`${customs} Until then it cannot be released.`);
    await title.getByRole('button', { name: 'Buyers' }).click();
    await expect(title.getByRole('link', { name: `Order ${number}` })).toBeVisible();
    // A buyer's cancel asked by keyboard: the question takes focus, and Keep it gives it back to the button that asked.
    const bought = title.getByRole('listitem').filter({ has: page.getByRole('link', { name: `Order ${number}` }) });
    await asksThenKeeps(page, bought.getByRole('button', { name: 'Cancel and refund' }), bought.getByRole('button', { name: 'Confirm cancel and refund' }));
    await lookAtBothWidths(page, 'preorders');

    // A second tab on Pre-orders: the first tab's change shows there when it is looked at again.
    const other = await page.context().newPage();
    await other.setViewportSize({ width: size.width, height: size.height });
    await other.goto('/admin#preorders');
    const otherTitle = other.getByRole('region', { name: `Pre-orders of ${book.title}` });
    await expect(otherTitle).toContainText('Pre-ordered: 3 of 5 (2 left)', { timeout: 15_000 });
    await page.bringToFront();
    await title.getByRole('spinbutton', { name: 'Allocation (copies)' }).fill('6');
    await title.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText(`${book.title}: 6 copies for pre-order, 3 left.`)).toBeVisible({ timeout: 15_000 });
    // The saved figure comes back into the same field: focus is still on the button pressed.
    await expect(title.getByRole('spinbutton', { name: 'Allocation (copies)' })).toHaveValue('6');
    await expect(title.getByRole('button', { name: 'Save' })).toBeFocused();
    await looksAgain(other);
    await expect(otherTitle).toContainText('Pre-ordered: 3 of 6 (3 left)');
    await page.bringToFront();

    // Not in To pack: the search there finds nothing for this buyer.
    await page.goto('/admin#orders');
    await expect(page.getByRole('button', { name: 'To pack', exact: true })).toHaveAttribute('aria-pressed', 'true');
    await page.getByLabel('Search by order number or email').fill(buyer);
    await expect(page.getByText('No orders here.')).toBeVisible({ timeout: 15_000 });
    // Under All it is there, its status in words.
    await page.getByRole('button', { name: 'All', exact: true }).click();
    await expect(page.locator(`a[href="#order/${orderId}"]:visible`)).toHaveText(number, { timeout: 15_000 });
    const listed = page.locator(':is(li, tr):visible').filter({ has: page.locator(`a[href="#order/${orderId}"]`) });
    await expect(listed.getByText(/^pre-ordered$/i)).toBeVisible();

    // A first delivery smaller than the copies owed is refused in plain words, and so is a release with a parcel
    // abroad that cannot be declared; once the deploy's catalog sync has written the customs data, Release now.
    await page.goto('/admin#preorders');
    const delivery = title.getByRole('spinbutton', { name: 'First delivery (copies)' });
    const release = title.getByRole('button', { name: 'Release now' });
    // Kept for the date, then cleared: Keep for the date saves an empty first delivery as none.
    const keep = title.getByRole('button', { name: 'Keep for the date' });
    const firstDelivery = async () =>
      (await asService<Array<{ preorder_first_delivery: number | null }>>(request, 'GET', `products?id=eq.${book.id}&select=preorder_first_delivery`))[0]!.preorder_first_delivery;
    await delivery.fill('5');
    await keep.click();
    await expect.poll(firstDelivery, { timeout: 15_000 }).toBe(5);
    await expect(delivery).toHaveValue('5');
    // The save has answered (a press while it runs is ignored); what is typed next is kept, whenever the list is read again.
    await expect(keep).not.toHaveAttribute('aria-disabled');
    await delivery.fill('');
    await keep.click();
    await expect.poll(firstDelivery, { timeout: 15_000 }).toBeNull();
    await expect(delivery).not.toHaveAttribute('aria-invalid');
    await expect(delivery).toHaveValue('');
    // Left empty, Release now is refused before anything is sent: marked and focused all the same.
    await release.focus();
    await page.keyboard.press('Enter');
    await expect(delivery).toHaveAttribute('aria-invalid', 'true');
    await expect(delivery).toBeFocused();
    // Checked again as it is edited: a figure that is right loses its mark at once.
    await delivery.fill('1');
    await expect(delivery).not.toHaveAttribute('aria-invalid');
    await release.click();
    await expect(delivery).toHaveAccessibleDescription(/^The first delivery is smaller than the 3 copies pre-ordered\./);
    // A refusal of the figure is marked on its field, and focus goes there, so a screen reader says why.
    await expect(delivery).toHaveAttribute('aria-invalid', 'true');
    await expect(delivery).toBeFocused();
    await delivery.fill('20');
    await expect(delivery).not.toHaveAttribute('aria-invalid');
    // Pressed with the keyboard: the refusal is about the book file's customs fields, not the delivery, so nothing here
    // is marked; it is said as an alert, and focus stays on the button pressed.
    await release.focus();
    await page.keyboard.press('Enter');
    await expect(title.getByRole('alert').filter({ hasText: 'is not released' })).toHaveText(`${book.title} is not released, and nothing has changed. ${customs} Then press Release now again.`, {
      timeout: 15_000,
    });
    await expect(delivery).not.toHaveAttribute('aria-invalid');
    await expect(release).toBeFocused();
    await lookAtBothWidths(page, 'preorders-refused');
    // The refusal goes once the figure is edited.
    await delivery.fill('21');
    await expect(title.getByRole('alert').filter({ hasText: 'is not released' })).toHaveCount(0);
    await expect(title).toContainText('Pre-ordered: 3 of 6 (3 left)');
    await asService(request, 'PATCH', `products?id=eq.${book.id}`, { customs_description: 'Printed picture book', hs_code: '4903.00', origin_country: 'AU' });
    await page.reload();
    await expect(title.getByRole('alert')).toHaveCount(0, { timeout: 15_000 });
    await delivery.fill('20');
    await title.getByRole('button', { name: 'Release now' }).click();
    await expect(page.getByText(`${book.title} is released: 17 in stock, 2 orders to pack (2 buyers emailed).`)).toBeVisible({ timeout: 15_000 });
    await expect(title).toHaveCount(0);
    // The other tab, looked at again, no longer offers it for release.
    await looksAgain(other);
    await expect(otherTitle).toHaveCount(0);
    await other.close();

    await page.goto('/admin#orders');
    await page.getByLabel('Search by order number or email').fill(buyer);
    await expect(page.locator(`a[href="#order/${orderId}"]:visible`)).toHaveText(number, { timeout: 15_000 });
    await expect.poll(async () => (await mailsTo(buyer, OUTBOX)).map((m) => m.subject)).toContain(`Your pre-order ${number} is being packed`);
  });
}

test('a buyer sees their pre-order waiting on its status page and cancels it there for a full refund', async ({ page, request }) => {
  const book = await ownProduct(request, 'preorder-cancel', { stock: 0, release_date: '2099-06-01', preorder_allocation: 5 });
  const buyer = uniqueEmail('preorder-canceller');
  const orderId = await buysThroughCheckout(request, book.id, 1, buyer);
  const [row] = await asService<Array<{ status_token: string }>>(request, 'GET', `orders?id=eq.${orderId}&select=status_token`);
  await page.goto(`/order-status#${row!.status_token}`);
  await expect(page.getByTestId('order-stage')).toHaveText('Pre-ordered');
  await expect(page.getByTestId('preorder-dates')).toHaveText(`Ships when ${book.title} is out, 1 June 2099.`);
  await lookAtBothWidths(page, 'preorder-status');
  // By keyboard: the question takes focus, Keep my pre-order gives it back; once cancelled, the sentence saying so
  // has it, over the order read again.
  const asker = page.getByRole('button', { name: 'Cancel my pre-order' });
  const yes = page.getByRole('button', { name: 'Yes, cancel and refund' });
  await asksThenKeeps(page, asker, yes);
  await page.keyboard.press('Enter');
  await expect(yes).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('order-stage')).toHaveText(/Cancelled/, { timeout: 15_000 });
  const said = page.getByRole('status').filter({ hasText: 'Your pre-order is cancelled and your payment refunded in full. We have emailed you a receipt of the refund.' });
  await expect(said).toBeFocused();
  await expect(asker).toHaveCount(0);
  await expect.poll(async () => (await mailsTo(buyer, OUTBOX)).map((m) => m.subject)).toContain(`Your order ${await orderNumberOf(request, orderId)} has been cancelled and refunded`);
});
