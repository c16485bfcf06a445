/**
 * A keyboard user in the back office keeps their place while an action runs: the pressed button keeps focus while it
 * is busy (a disabled button would drop it to the page), ignores being pressed again, and still has focus after.
 */
import { expect as baseExpect, type Page, test } from '@playwright/test';
import { asksThenKeeps, grantStaff, openFoundOrder, orderToFind, staffSignsIn, uniqueEmail } from './support';

// Each back-office screen loads its data after the session and the staff check: allow for a busy machine.
const expect = baseExpect.configure({ timeout: 15_000 });

/** Requests to `url` are counted and held until `answer()`: a button can be looked at while its action runs. */
async function holdAnswers(page: Page, url: string): Promise<{ sent: () => number; answer: () => void }> {
  let sent = 0;
  let answer = () => {};
  const answered = new Promise<void>((resolve) => {
    answer = resolve;
  });
  await page.route(url, async (route) => {
    sent += 1;
    await answered;
    await route.continue();
  });
  return { sent: () => sent, answer: () => answer() };
}

test('Create code pressed with the keyboard: focus stays on the button while it works, a second press sends nothing, and after', async ({ page, request }) => {
  const publisher = uniqueEmail('keyboard-publisher');
  await grantStaff(request, publisher);
  await staffSignsIn(page, publisher);
  await page.goto('/admin#codes');
  const code = `KEYS${Date.now().toString(36).toUpperCase()}`;
  await page.getByLabel('Code', { exact: true }).fill(code);
  await page.getByLabel('Percentage (1-100)').fill('10');

  // The database's answer waits until the button has been looked at while busy.
  const held = await holdAnswers(page, '**/rest/v1/rpc/admin_create_code');

  await page.getByRole('button', { name: 'Create code' }).focus();
  await page.keyboard.press('Enter');
  const busy = page.getByRole('button', { name: 'Creating...' });
  await expect(busy).toHaveAttribute('aria-disabled', 'true');
  await expect(busy).toBeFocused();
  await page.keyboard.press('Enter');
  await expect.poll(held.sent).toBe(1);
  expect(await page.evaluate(() => document.activeElement === document.body)).toBe(false);

  held.answer();
  await expect(page.getByText(`Code ${code} created.`).first()).toBeVisible();
  const done = page.getByRole('button', { name: 'Create code' });
  await expect(done).not.toHaveAttribute('aria-disabled');
  await expect(done).toBeFocused();
  expect(held.sent()).toBe(1);
});

test('An order cancelled by keyboard alone: the question takes focus, Keep the order gives it back, and a second press while cancelling sends nothing', async ({ page, request }) => {
  const { email, number } = await orderToFind(request, 'keyboard-cancel');
  const publisher = uniqueEmail('keyboard-publisher');
  await grantStaff(request, publisher);
  await staffSignsIn(page, publisher);
  await openFoundOrder(page, email, number);

  // The pressed button goes with the question: focus is on the one in its place, each way.
  await asksThenKeeps(page, page.getByRole('button', { name: 'Cancel and refund' }), page.getByRole('button', { name: 'Confirm cancel and refund' }));
  await page.keyboard.press('Enter');

  const held = await holdAnswers(page, '**/api/admin-order');
  const confirm = page.getByRole('button', { name: 'Confirm cancel and refund' });
  await expect(confirm).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(confirm).toHaveAttribute('aria-disabled', 'true');
  await expect(confirm).toBeFocused();
  await page.keyboard.press('Enter');
  await expect.poll(held.sent).toBe(1);
  held.answer();
  // Cancelled: the question goes, with nothing sent twice, and focus goes to the order's heading, not the page.
  await expect(confirm).toBeHidden();
  expect(held.sent()).toBe(1);
  await expect(page.getByRole('heading', { level: 2, name: `Order ${number}` })).toBeFocused();
});
