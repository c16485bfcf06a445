/**
 * Schools and parishes buying on account, as the school and the publisher meet it: a quote for 40 copies on
 * /schools-and-parishes, the request in /admin's Quotes, Make invoice, the draft at the 25+ copies price with a PO
 * number, Send, the school's email in the local outbox with its link, Pay on the TEST invoice page, the order in To
 * pack and its slip with the PO number. A voided invoice gives its copies back (Stock shows it); an invoice past its
 * due date says Overdue and is reminded. Each screen is looked at, with axe, at 375 and 1280 px.
 */
import { execFileSync } from 'node:child_process';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { scanPage } from '../audit/accessibility';
import { mailsTo, signUpsFrom } from './mailbox';
import { asService, grantStaff, lookAtBothWidths, orderNumberOf, ownProduct, staffSignsIn, toasts, uniqueEmail } from './support';

const BOOK = '10 Reasons Why Being Catholic is Awesome!';
const ADDRESS = { line1: '12 Mary St', city: 'Parramatta', state: 'NSW', postcode: '2150', country: 'AU' };

/** A draft invoice for `copies` of a book, saved as the back office's Save draft leaves it (the service role's step). */
async function draftInvoice(request: APIRequestContext, organisation: string, email: string, productId: string, copies: number, poNumber: string, shipBeforePayment = false): Promise<string> {
  const saved = await asService<{ outcome: string; invoice_id: string }>(request, 'POST', 'rpc/invoice_save_draft', {
    p_invoice_id: null,
    p_quote_id: null,
    p_draft: {
      organisation,
      contact_name: 'Fr John Smith',
      email,
      phone: '02 9000 0000',
      address: ADDRESS,
      po_number: poNumber,
      lines: [{ product_id: productId, quantity: copies }],
      shipping: { kind: 'rate_card', name: 'AU Standard Courier', amount: 15 },
      terms_days: 14,
      ship_before_payment: shipBeforePayment,
    },
    p_actor: 'publisher@example.com',
  });
  expect(saved.outcome).toBe('saved');
  return saved.invoice_id;
}

/** The invoice's page in /admin, sent with Send invoice and its dialog. */
async function sendFromEditor(page: Page, invoiceId: string): Promise<void> {
  await page.goto(`/admin#invoice/${invoiceId}`);
  await page.getByRole('button', { name: 'Send invoice' }).click();
  const dialog = page.getByRole('dialog', { name: /^Send the invoice to / });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Send invoice' }).click();
  await expect(page.getByRole('heading', { name: /^Invoice INV-\d{4}$/ })).toBeVisible();
  await expect(page.getByText('Sent, unpaid')).toBeVisible();
}

test.describe('schools and parishes on account', () => {
  // A list read again after the test's last step may still be on its way through a stand-in route: dropped.
  test.afterEach(({ page }) => page.unrouteAll({ behavior: 'ignoreErrors' }));

  test('a quote for 40 copies becomes an invoice at the 25+ price with a PO number, paid, packed with the PO on its slip', async ({ page, request }) => {
    test.slow();
    const school = uniqueEmail('school');
    const staff = uniqueEmail('publisher');
    const organisation = `St Mary MacKillop Primary ${Date.now()}`;
    const po = `PO-${Date.now().toString().slice(-6)}`;
    await grantStaff(request, staff);
    await signUpsFrom(page, '127.0.44.51');
    // The school's 40 copies are of the book the other tests buy too: they come on top of its stock, so those tests
    // find as many as before.
    const [shared] = await asService<Array<{ stock: number }>>(request, 'GET', 'products?id=eq.book-10-reasons&select=stock');
    await asService(request, 'PATCH', 'products?id=eq.book-10-reasons', { stock: shared!.stock + 40 });

    // The page, and its form's errors when sent empty: marked, described and the first focused.
    await page.goto('/schools-and-parishes');
    await expect(page.getByRole('heading', { level: 1, name: 'Class Sets and Parish Orders, Bought on Account' })).toBeVisible();
    await expect(page.getByText('25 or more copies $18.00 each')).toBeVisible();
    const form = page.getByRole('form', { name: 'Quote request' });
    const send = form.getByRole('button', { name: 'Request a Quote' });
    await send.scrollIntoViewIfNeeded();
    await expect(send).toBeEnabled(); // hydrated (client:visible)
    await lookAtBothWidths(page, 'schools-page');
    await page.setViewportSize({ width: 1280, height: 800 });
    const organisationField = form.getByLabel('School, parish or group');
    await send.click();
    await expect(organisationField).toBeFocused();
    // Focused on its error, a field a browser scrolls to the top stops below the sticky header, not under it.
    const header = (await page.locator('header.sticky').boundingBox())!;
    expect(await organisationField.evaluate((field) => Number.parseFloat(getComputedStyle(field).scrollMarginTop))).toBeGreaterThan(header.height);
    await expect(organisationField).toHaveAttribute('aria-invalid', 'true');
    await expect(organisationField).toHaveAccessibleDescription("Please enter your school, parish or group's name.");
    await expect(form.getByLabel(BOOK)).toHaveAccessibleDescription('Please enter how many copies you need of at least one book.');
    await lookAtBothWidths(page, 'schools-form-errors');

    await organisationField.fill(organisation);
    await expect(organisationField).not.toHaveAttribute('aria-invalid');
    await form.getByLabel('Contact name').fill('Bernadette Nguyen');
    await form.getByLabel('Email').fill(school);
    await form.getByLabel('Phone').fill('02 9876 5432');
    await form.getByLabel('Street address').fill(ADDRESS.line1);
    await form.getByLabel('Suburb or town').fill(ADDRESS.city);
    await form.getByLabel('State or territory').selectOption('NSW');
    await form.getByLabel('Postcode').fill(ADDRESS.postcode);
    // A quantity past the limit: its error, and no price for it.
    await form.getByLabel(BOOK).fill('100000');
    await send.click();
    await expect(form.getByLabel(BOOK)).toHaveAccessibleDescription(/from 0 to 5,000/);
    await expect(form.getByText(/^100000 ×/)).toHaveCount(0);
    // A count that is not one marks its own field only, which is focused; the other books' fields stay unmarked.
    const copies = form.getByRole('group', { name: 'Copies' }).getByRole('spinbutton');
    const other = copies.nth((await copies.first().getAttribute('id')) === (await form.getByLabel(BOOK).getAttribute('id')) ? 1 : 0);
    await form.getByLabel(BOOK).fill('40');
    await other.fill('-3');
    await send.click();
    await expect(other).toBeFocused();
    await expect(other).toHaveAttribute('aria-invalid', 'true');
    await expect(other).toHaveAccessibleDescription(/from 0 to 5,000/);
    await expect(form.getByLabel(BOOK)).not.toHaveAttribute('aria-invalid');
    await expect(form.locator('input[type=number][aria-invalid]')).toHaveCount(1);
    await other.fill('0');
    await form.getByLabel(BOOK).fill('40');
    await expect(form.getByText('40 × $18.00 each = $720.00, you save $160.00')).toBeVisible();
    await form.getByLabel('Note (optional)').fill('Please deliver to the front office.');
    await send.click();
    const answer = page.getByTestId('quote-sent');
    await expect(answer).toBeFocused();
    await expect(answer.getByRole('heading', { name: 'Thank you, your quote request is on its way' })).toBeVisible();
    await expect(answer).toContainText(`We'll email your quote to ${school} within two business days.`);
    await lookAtBothWidths(page, 'schools-quote-sent');

    // The publisher: the quote counted in the tab, its page, Make invoice.
    await staffSignsIn(page, staff);
    const nav = page.getByRole('navigation', { name: 'Back office' });
    await expect(nav.getByRole('link', { name: /^Quotes \d+ new$/ })).toBeVisible();
    await nav.getByRole('link', { name: /^Quotes/ }).click();
    await expect(page.getByRole('heading', { name: 'Quote requests' })).toBeVisible();
    await lookAtBothWidths(page, 'admin-quotes');
    await page.getByRole('link', { name: organisation }).click();
    await expect(page.getByRole('heading', { name: `Quote for ${organisation}` })).toBeVisible();
    await expect(page.getByText('Please deliver to the front office.')).toBeVisible();
    await lookAtBothWidths(page, 'admin-quote');
    await page.getByRole('button', { name: 'Make invoice' }).click();

    // The draft, prefilled: 40 copies at the 25+ price; the PO number typed; Send.
    await expect(page.getByRole('heading', { name: /^Draft invoice INV-\d{4}$/ })).toBeVisible();
    await expect(page.getByLabel('School, parish or group')).toHaveValue(organisation);
    const line = page.getByTestId('invoice-line');
    await expect(line.getByLabel('Copies')).toHaveValue('40');
    await expect(line).toContainText('$18.00 quantity price');
    await expect(line).toContainText('$720.00');
    await page.getByLabel('Purchase order number (optional)').fill(po);
    await page.getByLabel('14 days to pay').check();
    await lookAtBothWidths(page, 'admin-invoice-draft');
    await page.getByRole('button', { name: 'Send invoice' }).click();
    const dialog = page.getByRole('dialog', { name: `Send the invoice to ${school}?` });
    await expect(dialog).toContainText(`with PO number ${po}`);
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeVisible();
    await dialog.getByRole('button', { name: 'Send invoice' }).click();
    await expect(page.getByText('Sent, unpaid')).toBeVisible();
    await expect(page.getByText(po).first()).toBeVisible();
    await lookAtBothWidths(page, 'admin-invoice-sent');

    // The school's email, and its payment on the TEST invoice page.
    await expect.poll(async () => (await mailsTo(school)).filter((m) => /^Invoice INV-\d{4} from /.test(m.subject)).length, { message: 'the invoice email' }).toBe(1);
    const mail = (await mailsTo(school)).find((m) => /^Invoice INV-\d{4} from /.test(m.subject))!;
    expect(mail.text).toContain(`PO number: ${po}`);
    expect(mail.text).not.toContain(`PO ${po}`);
    const link = mail.text.match(/(https?:\/\/\S+\/api\/test-invoice\S*)/)?.[1];
    expect(link, 'the invoice page link').toBeTruthy();
    const payer = await page.context().newPage();
    await payer.goto(link!);
    await expect(payer.getByText('TEST').first()).toBeVisible();
    await expect(payer.getByText(po).first()).toBeVisible();
    await payer.getByRole('button', { name: 'Pay invoice' }).click();
    await expect(payer.getByText(/paid/i).first()).toBeVisible();
    await payer.close();

    // Paid: in To pack, and its slip carries the organisation and the PO number. (The invoice's page is still open
    // behind: read it again.)
    await page.reload();
    await expect(page.getByText('Paid', { exact: true })).toBeVisible();
    const orderLink = page.getByRole('link', { name: 'Open its order' });
    const orderId = (await orderLink.getAttribute('href'))!.replace('#order/', '');
    await page.goto('/admin#orders');
    await expect(page.getByRole('link', { name: await orderNumberOf(request, orderId), exact: true })).toBeVisible();
    await page.goto(`/admin/packing-slip?order=${orderId}`);
    await expect(page.getByTestId('slip-organisation')).toHaveText(organisation);
    await expect(page.getByTestId('slip-po')).toContainText(`Purchase order: ${po}`);
    await lookAtBothWidths(page, 'admin-slip');

    // The school's order status page: its invoice's number and PO, and the invoice's own page; no second tax invoice.
    const [row] = await asService<Array<{ status_token: string }>>(request, 'GET', `orders?select=status_token&id=eq.${orderId}`);
    await page.goto(`/order-status#${row!.status_token}`);
    const onAccount = page.getByTestId('account-invoice');
    await expect(onAccount.getByRole('heading', { name: /^Invoice INV-\d{4}$/ })).toBeVisible();
    await expect(onAccount).toContainText(`PO number: ${po}`);
    await expect(onAccount.getByRole('link', { name: /^View invoice INV-\d{4}$/ })).toHaveAttribute('href', /\/api\/test-invoice/);
    await expect(page.getByText(/Tax invoice/)).toHaveCount(0);
    await lookAtBothWidths(page, 'schools-order-status');
    await page.goto(`/order-status/invoice#${row!.status_token}`);
    await expect(page.getByRole('alert')).toContainText(/its tax invoice is invoice INV-\d{4} \(PO number: /);
    await expect(page.getByText(/^Order [1-9][0-9]{3,}/)).toHaveCount(0);
  });

  test('a voided invoice gives its copies back, as Stock shows', async ({ page, request }) => {
    const staff = uniqueEmail('publisher');
    const book = await ownProduct(request, 'invoice-void', { stock: 50 });
    await grantStaff(request, staff);
    const invoiceId = await draftInvoice(request, `Holy Family Parish ${Date.now()}`, uniqueEmail('parish'), book.id, 30, 'HF-30');
    await staffSignsIn(page, staff);

    await sendFromEditor(page, invoiceId);
    await page.goto('/admin#stock');
    const card = page.getByRole('region', { name: `Stock of ${book.title}` });
    await expect(card.getByText('In stock: 20')).toBeVisible();

    await page.goto(`/admin#invoice/${invoiceId}`);
    const voidButton = page.getByRole('button', { name: 'Void invoice' });
    await voidButton.click();
    const dialog = page.getByRole('dialog', { name: /^Void invoice INV-\d{4}\?$/ });
    await expect(dialog).toContainText('its 30 copies go back into stock');
    // Escape keeps the invoice and gives focus back to the button that asked.
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(voidButton).toBeFocused();
    await voidButton.click();
    await expect(dialog).toBeVisible();
    expect(await scanPage(page), 'axe on the void dialog').toEqual([]);
    await dialog.getByRole('button', { name: 'Void invoice' }).click();
    await expect(page.getByText('Void', { exact: true })).toBeVisible();
    // The button that voided it is gone: focus is on the invoice's heading, not lost.
    await expect(page.getByRole('heading', { name: /^Invoice INV-\d{4}$/ })).toBeFocused();

    await page.goto('/admin#stock');
    await expect(card.getByText('In stock: 50')).toBeVisible();
  });

  test('an invoice sent to ship before payment is shipped from its order page, which names the school, the PO and the invoice', async ({ page, request }) => {
    const staff = uniqueEmail('publisher');
    const organisation = `St Brigid's College ${Date.now()}`;
    const book = await ownProduct(request, 'invoice-early', { stock: 40 });
    await grantStaff(request, staff);
    const invoiceId = await draftInvoice(request, organisation, uniqueEmail('college'), book.id, 25, 'SB-25', true);
    await staffSignsIn(page, staff);

    // A changed price reads as changed on its line; saved as typed ("20.5"), the draft is saved, not "Not saved yet".
    await page.goto(`/admin#invoice/${invoiceId}`);
    const line = page.getByTestId('invoice-line');
    await line.getByLabel(/^Charge another price for /).check();
    await line.getByLabel('Price each (AUD)').fill('20.5');
    await line.getByLabel('Reason for the price').fill('Diocesan agreement');
    await expect(line).toContainText('$20.50 changed from $');
    await expect(line).not.toContainText('quantity price');
    // The running totals follow what was typed: 25 copies at $20.50, the standard service free from $75.
    await expect(page.getByTestId('invoice-total')).toHaveText('$512.50 AUD');
    await lookAtBothWidths(page, 'admin-invoice-changed-price');
    await expect(page.getByText(/^Not saved yet/)).toBeVisible();
    await page.getByRole('button', { name: 'Save draft' }).click();
    await expect(page.getByText(/^Not saved yet/)).toHaveCount(0);
    await sendFromEditor(page, invoiceId);
    await page.getByRole('link', { name: 'Open its order' }).click();
    await expect(page.getByRole('heading', { name: /^Order [1-9][0-9]{3,}$/ })).toBeVisible();
    const onAccount = page.getByRole('region', { name: 'Bought on account' });
    await expect(onAccount).toContainText(organisation);
    await expect(onAccount).toContainText('PO number: SB-25');
    await expect(onAccount.getByRole('link', { name: /^Invoice INV-\d{4}$/ })).toHaveAttribute('href', `#invoice/${invoiceId}`);
    // The server never cancels an invoice's order: the page sends the publisher to the invoice instead.
    await expect(page.getByRole('button', { name: 'Cancel and refund' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Void the invoice, or give money back with a credit note' })).toHaveAttribute('href', `#invoice/${invoiceId}`);
    await expect(page.getByRole('button', { name: 'Edit delivery address' })).toBeVisible();
    await lookAtBothWidths(page, 'admin-invoice-order');
    await page.getByLabel('Tracking number').fill('33QRS0000002');
    await page.getByRole('button', { name: 'Confirm shipment' }).click();
    await expect(toasts(page)).toContainText('marked as shipped');
    await expect(page.getByText('Australia Post: 33QRS0000002')).toBeVisible();

    // Voiding it now: the books have left, so nothing goes back to stock and the invoice is written off.
    await page.goto(`/admin#invoice/${invoiceId}`);
    await page.getByRole('button', { name: 'Void invoice' }).click();
    const dialog = page.getByRole('dialog', { name: /^Void invoice INV-\d{4}\?$/ });
    await expect(dialog).toContainText('were shipped');
    await expect(dialog).not.toContainText('go back into stock');
  });

  test('packed before payment: its slip says unpaid and when it is due, its label names the school, and the header asks its count again', async ({ page, request }) => {
    test.slow();
    const staff = uniqueEmail('publisher');
    const school = uniqueEmail('school-early');
    const organisation = `St Therese Primary ${Date.now()}`;
    const book = await ownProduct(request, 'invoice-papers', { stock: 40 });
    await grantStaff(request, staff);
    const invoiceId = await draftInvoice(request, organisation, school, book.id, 20, 'ST-20', true);
    await staffSignsIn(page, staff);
    await sendFromEditor(page, invoiceId);
    const orderId = (await page.getByRole('link', { name: 'Open its order' }).getAttribute('href'))!.replace('#order/', '');
    const number = await orderNumberOf(request, orderId);

    // The slip goes in the box to the school's accounts team: it must not say paid.
    await page.goto(`/admin/packing-slip?order=${orderId}`);
    await expect(page.getByTestId('slip-total')).toContainText(/Total \$[\d.,]+ AUD: unpaid, due on \d{1,2} \w+ \d{4} \(invoice INV-\d{4}\)/);
    await expect(page.getByTestId('slip-total')).not.toContainText('Total paid');
    await lookAtBothWidths(page, 'admin-slip-unpaid');

    // Sent to the shipping platform at send, with the school's name.
    await page.goto('/api/test-shipping');
    await expect(page.locator(`article[data-order="${number}"]`)).toContainText(`${organisation}, Attn: Fr John Smith`);

    // Its label, from the To pack list: the school above its contact; the header's count is asked for again after.
    await page.goto('/admin#orders');
    await page.getByLabel('Search by order number or email').fill(school);
    await page.getByRole('checkbox', { name: `Select order ${number}` }).check();
    const askedAgain = page.waitForRequest((r) => r.url().includes('/rpc/staff_orders_to_pack'));
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Print their labels' }).click()]);
    await askedAgain;
    await expect(page.getByText(`The label of order ${number} is ready`).first()).toBeVisible();
    const pdf = test.info().outputPath('label-school.pdf');
    await download.saveAs(pdf);
    const text = execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' });
    expect(text).toContain(organisation);
    expect(text).toContain('Attn: Fr John Smith');
    // Looked at as a picture too (saved beside the screenshots).
    execFileSync('pdftoppm', ['-png', '-r', '60', '-singlefile', pdf, test.info().outputPath('label-school')]);
  });

  test('an invoice for more copies than are left is not sent, and the dialog says why', async ({ page, request }) => {
    const staff = uniqueEmail('publisher');
    const book = await ownProduct(request, 'invoice-short', { stock: 5 });
    await grantStaff(request, staff);
    const invoiceId = await draftInvoice(request, `St Joseph's School ${Date.now()}`, uniqueEmail('school'), book.id, 30, 'SJ-30');
    await staffSignsIn(page, staff);
    await page.goto(`/admin#invoice/${invoiceId}`);
    await page.getByRole('button', { name: 'Send invoice' }).click();
    const dialog = page.getByRole('dialog', { name: /^Send the invoice to / });
    await dialog.getByRole('button', { name: 'Send invoice' }).click();
    await expect(dialog.getByRole('alert')).toHaveText(`Not sent: Only 5 copies of ${book.title} left: lower the quantity or receive stock, then send it again.`);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('heading', { name: /^Draft invoice INV-\d{4}$/ })).toBeVisible();
  });

  test('an invoice past its due date says Overdue in words, and is reminded', async ({ page, request }) => {
    const staff = uniqueEmail('publisher');
    const parish = uniqueEmail('late-parish');
    const organisation = `Our Lady of Lourdes ${Date.now()}`;
    const book = await ownProduct(request, 'invoice-late', { stock: 40 });
    await grantStaff(request, staff);
    const invoiceId = await draftInvoice(request, organisation, parish, book.id, 12, 'OLL-12');
    await staffSignsIn(page, staff);
    await sendFromEditor(page, invoiceId);
    // Sent 20 days ago on 14 days' terms: six days late. No role may backdate a sent invoice in the database (the
    // functions' role only reads the table), so the list's answer is read as the database would give it then: this
    // invoice due six days ago, and overdue, which the database computes from the due date.
    const sydneyDay = (at: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Australia/Sydney' }).format(at);
    const dueOn = sydneyDay(new Date(Date.now() - 6 * 86_400_000));
    await page.route('**/rest/v1/rpc/admin_list_invoices', async (route) => {
      const response = await route.fetch();
      const answer = (await response.json()) as { rows: Array<Record<string, unknown>>; next: string | null };
      for (const row of answer.rows) if (row.id === invoiceId) Object.assign(row, { due_on: dueOn, overdue: true });
      await route.fulfill({ response, json: answer });
    });

    await page.goto('/admin#invoices');
    await expect(page.getByRole('heading', { name: 'Invoices' })).toBeVisible();
    const row = page.getByRole('row').filter({ hasText: organisation });
    await expect(row.getByText('Overdue', { exact: true })).toBeVisible();
    await expect(row).toContainText('6 days late');
    await lookAtBothWidths(page, 'admin-invoices-overdue');
    const before = (await mailsTo(parish)).length;
    await row.getByRole('button', { name: /^Send reminder for INV-\d{4}$/ }).click();
    await expect(toasts(page)).toContainText(`emailed again to ${parish}`);
    await expect.poll(async () => (await mailsTo(parish)).filter((m) => m.subject.startsWith('Reminder: Invoice')).length, { message: 'the reminder email' }).toBe(1);
    expect((await mailsTo(parish)).length).toBe(before + 1);
  });
});
