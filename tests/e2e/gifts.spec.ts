/**
 * Gifts and the reminder for an unpaid checkout, as a shopper and the publisher meet them (each journey once, its
 * screens looked at on a phone, 375 px, and a desktop, 1280 px): a gift with a message and the prices left out, through the real checkout and the
 * TEST payment page, to the status page, the back office's order and its gift slip (no price on it, the message
 * in its box); a payment page left unpaid with consent gives exactly one reminder, whose link brings the cart
 * back, and a second Cancel none; without consent, none.
 */
import { expect as baseExpect, test, type Page } from '@playwright/test';
import { readOutbox } from '../../functions/_lib/providers/local-email';
import { addToCart, fillAddress, grantStaff, lookAtBothWidths, openFoundOrder, payInNewTab, staffSignsIn, uniqueEmail, WIDTHS } from './support';

const OUTBOX = 'test-results/outbox.jsonl';
const BOOK = '10 Reasons Why Being Catholic is Awesome!';
const MESSAGE_LINES = ['Happy First Communion, Lucy!', 'With love from Nonna and Nonno'];
// Each back-office screen loads its data after the session and the staff check: allow for a busy machine.
const expect = baseExpect.configure({ timeout: 15_000 });

const outboxFor = async (email: string) => (await readOutbox(OUTBOX)).filter((e) => e.to === email);

/** The checkout for one copy of the book, the buyer's email typed and the Sydney address filled in. */
async function startCheckout(page: Page, email: string, quantity = 1): Promise<void> {
  await addToCart(page, '/store/product/book-10-reasons', quantity);
  await page.goto('/checkout');
  await page.getByLabel('Email').fill(email);
}

const [PHONE, DESKTOP] = WIDTHS;

test.describe('gifts and reminders', () => {
  // Whole journeys through several pages.
  test.describe.configure({ timeout: 180_000 });

  test('a gift with a message and no prices: checkout → TEST payment → status page → the order and its gift slip in the back office', async ({ page, browser, request }) => {
    await page.setViewportSize({ width: PHONE.width, height: PHONE.height });
    const buyer = uniqueEmail('gift-buyer');
    await startCheckout(page, buyer);

    // The delivery name becomes the recipient's once it is a gift.
    await expect(page.getByLabel('Full name (optional)')).toBeVisible();
    await page.getByLabel('This is a gift').check();
    await expect(page.getByLabel("Recipient's full name")).toBeVisible();
    const message = page.getByLabel('Gift message (optional)');
    await expect(message).toHaveAccessibleDescription(/200 characters left/);

    // Over the limit: the count says so, and the message is refused on its field before anything is sent.
    await message.fill('x'.repeat(201));
    await expect(page.getByText('1 character too many', { exact: true })).toBeVisible();
    await expect(message).toHaveAccessibleDescription(/^1 character too many Printed on a gift slip in the parcel\./);
    await page.getByLabel("Recipient's full name").fill('Lucy Recipient');
    // The buyer is asked their own name too: the delivery name is the recipient's.
    await page.getByLabel('Your name (optional)').fill('Rosa Bianchi');
    await fillAddress(page, { line1: '12 Gift Lane', city: 'Parramatta', postcode: '2150' });
    await expect(page.getByRole('radio', { name: /AU Standard Courier/ })).toBeChecked();
    await page.getByRole('button', { name: 'Proceed to Payment' }).click();
    await expect(message).toHaveAttribute('aria-invalid', 'true');
    await expect(message).toHaveAccessibleDescription(/Please keep the gift message to 200 characters or fewer/);
    await expect(message).toBeFocused();

    await message.fill(MESSAGE_LINES.join('\n'));
    await expect(message).toHaveAccessibleDescription(new RegExp(`${200 - MESSAGE_LINES.join('\n').length} characters left`));
    // A gift's parcel carries no prices unless the buyer asks for them.
    await expect(page.getByLabel('Show the prices on the gift slip')).not.toBeChecked();
    // Kept for the tab's session: a reload brings the gift back as typed.
    await page.reload();
    await expect(page.getByLabel('Gift message (optional)')).toHaveValue(MESSAGE_LINES.join('\n'));
    await expect(page.getByLabel('Show the prices on the gift slip')).not.toBeChecked();
    await expect(page.getByRole('radio', { name: /AU Standard Courier/ })).toBeChecked();
    await lookAtBothWidths(page, 'checkout-gift');

    const payment = await payInNewTab(page);
    await payment.getByRole('button', { name: /^Pay/ }).click();
    await expect(payment.getByRole('heading', { name: 'Order Confirmed!' })).toBeVisible();
    const number = (await payment.getByTestId('order-number').textContent())!;
    // The confirmation page says it is a gift, to whom, and with which message.
    await expect(payment.getByRole('heading', { name: 'A gift for Lucy Recipient' })).toBeVisible();
    await expect(payment.getByTestId('gift-message')).toHaveText(MESSAGE_LINES.join('\n'));
    await expect(payment.getByText('Prices are left out of the parcel.')).toBeVisible();
    // On a phone the email address breaks only before its @ or after a hyphen, never mid-word.
    for (const size of WIDTHS) {
      await payment.setViewportSize({ width: size.width, height: size.height });
      const address = payment.getByText(buyer, { exact: true });
      await expect(address).toBeVisible();
      const breaks = await address.evaluate((element) => {
        const text = element.textContent ?? '';
        const range = document.createRange();
        const tops: number[] = [];
        let offset = 0;
        for (const node of [...element.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE)) {
          for (let i = 0; i < (node.textContent ?? '').length; i++) {
            range.setStart(node, i);
            range.setEnd(node, i + 1);
            tops[offset + i] = range.getBoundingClientRect().top;
          }
          offset += (node.textContent ?? '').length;
        }
        return tops.flatMap((top, i) => (i > 0 && top > tops[i - 1]! + 2 ? [`${text.slice(0, i)}|${text.slice(i)}`] : []));
      });
      for (const at of breaks) expect(at, `${size.width} px`).toMatch(/-\||\|@/);
    }
    await payment.setViewportSize({ width: PHONE.width, height: PHONE.height });

    // The buyer's confirmation: to the buyer, about the gift.
    const confirmation = (await outboxFor(buyer)).find((e) => e.subject.includes('is confirmed'));
    expect(confirmation?.text).toContain('This order is a gift for Lucy Recipient.');
    expect(confirmation?.text).toContain(MESSAGE_LINES[1]);
    const statusLink = confirmation!.text.match(/Follow your order: (\S+)/)![1]!;
    await payment.goto(new URL(statusLink).pathname + new URL(statusLink).hash);
    await expect(payment.getByRole('heading', { name: 'A gift for Lucy Recipient' })).toBeVisible();
    await expect(payment.getByTestId('gift-message')).toHaveText(MESSAGE_LINES.join('\n'));
    await expect(payment.getByText('Prices are left out of the parcel.')).toBeVisible();
    await lookAtBothWidths(payment, 'status-gift');

    const publisher = uniqueEmail('gift-publisher');
    await grantStaff(request, publisher);
    const staff = await browser.newPage({ viewport: { width: PHONE.width, height: PHONE.height } });
    await staffSignsIn(staff, publisher);
    await staff.getByRole('button', { name: 'All', exact: true }).click();
    await openFoundOrder(staff, number, number);
    await expect(staff.getByRole('heading', { name: 'Gift for Lucy Recipient' })).toBeVisible();
    await expect(staff.getByTestId('gift-message')).toHaveText(MESSAGE_LINES.join('\n'));
    await expect(staff.getByText('Leave prices out of the parcel: pack the gift slip only.')).toBeVisible();
    await expect(staff.getByText(buyer).first()).toBeVisible();
    // The buyer's own name, as they typed it at checkout.
    await expect(staff.getByText('Rosa Bianchi')).toBeVisible();

    await staff.getByRole('link', { name: 'Print packing slip' }).click();
    const slip = staff.getByRole('article', { name: `Gift slip ${number}` });
    await expect(slip.getByTestId('slip-title')).toHaveText('Gift slip');
    await expect(slip.getByText('Lucy Recipient')).toBeVisible();
    await expect(slip.getByText(BOOK)).toBeVisible();
    await expect(slip.getByRole('heading', { name: 'A gift for you' })).toBeVisible();
    await expect(slip.getByTestId('gift-message')).toHaveText(MESSAGE_LINES.join('\n'));
    expect(await slip.textContent()).not.toMatch(/\$|AUD|\d+\.\d\d/);
    await lookAtBothWidths(staff, 'gift-slip');
    await staff.emulateMedia({ media: 'print' });
    await staff.screenshot({ path: test.info().outputPath('gift-slip-print.png'), fullPage: true });
    // The printed page, read as its text: titled a gift slip, with no price on it.
    const printed = await slip.innerText();
    expect(printed).toMatch(/^GIFT SLIP/i);
    expect(printed).toContain(BOOK);
    expect(printed).not.toMatch(/\$|AUD|\d+\.\d\d/);
    await staff.pdf({ path: test.info().outputPath('gift-slip.pdf'), format: 'A4', preferCSSPageSize: true });
  });

  test('a payment page left unpaid: one reminder with consent, its link brings the cart back, a second Cancel sends none; without consent none', async ({ page, browser }) => {
    await page.setViewportSize({ width: DESKTOP.width, height: DESKTOP.height });
    const consenting = uniqueEmail('reminder-yes');
    await startCheckout(page, consenting, 2);
    const consent = page.getByLabel('Send me one reminder about this order if I leave the payment page without paying');
    await expect(consent).not.toBeChecked();
    await consent.check();
    await fillAddress(page, { line1: '3 Almost Rd', city: 'Parramatta', postcode: '2150' });
    await expect(page.getByRole('radio', { name: /AU Standard Courier/ })).toBeChecked();
    const payment = await payInNewTab(page);
    await payment.getByRole('button', { name: 'Cancel' }).click();
    await expect(payment.getByText('Payment cancelled.')).toBeVisible();
    // The same Cancel again (the local stand-in's replay): the reminder is claimed already.
    await payment.goBack();
    await payment.getByRole('button', { name: 'Cancel' }).click();
    await expect(payment.getByText('Payment cancelled.')).toBeVisible();

    const reminders = (await outboxFor(consenting)).filter((e) => e.subject.startsWith('Your books are still waiting'));
    expect(reminders).toHaveLength(1);
    expect(reminders[0]!.text).toContain(`${BOOK} × 2`);
    const link = new URL(reminders[0]!.text.match(/(http\S+\/cart\?restore=[0-9a-f]{64})/)![1]!);

    // Another device, an empty cart: the link fills it.
    const elsewhere = await browser.newPage({ viewport: { width: DESKTOP.width, height: DESKTOP.height } });
    await elsewhere.goto(link.pathname + link.search);
    await expect(elsewhere.getByText('Your books are back in your cart. Prices and stock are as they are today.')).toBeVisible();
    await expect(elsewhere).toHaveURL(/\/cart$/);
    // The cart shows its lines as a table on a desktop and as cards on a phone: whichever is shown.
    await expect(elsewhere.getByRole('main').getByText(BOOK).filter({ visible: true }).first()).toBeVisible();
    await expect(elsewhere.getByRole('textbox', { name: `Quantity of ${BOOK}` }).filter({ visible: true })).toHaveValue('2');
    await lookAtBothWidths(elsewhere, 'cart-restored');

    const declining = uniqueEmail('reminder-no');
    const other = await browser.newPage({ viewport: { width: DESKTOP.width, height: DESKTOP.height } });
    await startCheckout(other, declining);
    await fillAddress(other, { line1: '4 Maybe St', city: 'Parramatta', postcode: '2150' });
    await expect(other.getByRole('radio', { name: /AU Standard Courier/ })).toBeChecked();
    const unpaid = await payInNewTab(other);
    await unpaid.getByRole('button', { name: 'Cancel' }).click();
    await expect(unpaid.getByText('Payment cancelled.')).toBeVisible();
    expect(await outboxFor(declining)).toEqual([]);
  });
});
