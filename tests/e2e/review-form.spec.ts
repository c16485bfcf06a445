/**
 * The buyer's review form from a review request's link, at 375 and 1280 px: the title and the review say how many
 * characters they have left as the buyer types (a polite live region that describes the field), and what is typed
 * past the limit is kept and refused in words, never cut. And the link open in two windows: a save from the window
 * that is behind the other's save is refused with a word to reload, and nothing the other saved is lost.
 */
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { readBooks } from '@/features/catalog/book-files';
import { deliveredOrderItem, deliveredOrderRow } from '../helpers/delivered-order';
import { mailsTo } from './mailbox';
import { asService, lookAtThisWidth, toasts, uniqueEmail, WIDTHS } from './support';

const book = readBooks().find((b) => b.featured)!;
const CHANGED_ELSEWHERE = 'This review was changed in another window. Reload to see the latest.';

/** A buyer whose parcel came four days ago, asked by the hourly run: the link in their email. */
async function reviewLink(request: APIRequestContext, tag: string): Promise<string> {
  const email = uniqueEmail(tag);
  const [order] = await asService<Array<{ id: string }>>(request, 'POST', 'orders', deliveredOrderRow(email, { name: 'Mary Anne Smith', deliveredDaysAgo: 4 }));
  await asService(request, 'POST', 'order_items', deliveredOrderItem(order!.id, book));
  const answer = await request.post('/.netlify/functions/review-requests');
  expect(answer.ok(), await answer.text()).toBe(true);
  const [mail] = await mailsTo(email);
  return /Review .+: (http\S+)/.exec(mail!.text)![1]!;
}

async function opens(page: Page, link: string) {
  await page.goto(link);
  await expect(page.getByRole('heading', { name: `Your review of ${book.title}` })).toBeVisible();
}

/** Five stars, a title and a sentence, ticked, sent. */
async function writes(page: Page, title: string, sentence: string) {
  await page.getByRole('radio', { name: '5 out of 5 stars' }).check();
  await page.getByLabel('Title', { exact: true }).fill(title);
  await page.getByLabel('Your review', { exact: true }).fill(sentence);
  await page.getByRole('checkbox', { name: /may be published/ }).check();
  await page.getByRole('button', { name: /Send review|Save changes/ }).click();
}

for (const size of WIDTHS) {
  test(`the title and the review say how many characters are left, and what is typed past the limit is said, not cut, at ${size.width} px`, async ({ page, request }) => {
    await page.setViewportSize({ width: size.width, height: size.height });
    await opens(page, await reviewLink(request, `count-${size.width}`));
    const title = page.getByLabel('Title', { exact: true });
    const review = page.getByLabel('Your review', { exact: true });
    await expect(title).toHaveAccessibleDescription('80 characters left');
    await expect(review).toHaveAccessibleDescription('2,000 characters left');
    // The count is a polite live region: said as it changes, without taking the buyer away from the field.
    const titleCount = page.locator(`[id="${await title.getAttribute('aria-describedby')}"]`);
    await expect(titleCount).toHaveAttribute('aria-live', 'polite');

    // Counted as the database counts: the spaces around are trimmed, an emoji is one character.
    await title.fill(' A joy 😀 ');
    await expect(titleCount).toHaveText('73 characters left');
    const long = `${'Counted to ten '.repeat(6)}every night`;
    await title.fill(long);
    await expect(title).toHaveValue(long);
    await expect(titleCount).toHaveText(`${long.length - 80} characters too many`);
    await review.fill(`${'x'.repeat(1999)}yz`);
    await expect(review).toHaveAccessibleDescription('1 character too many');
    await page.getByRole('radio', { name: '5 out of 5 stars' }).check();
    await page.getByRole('checkbox', { name: /may be published/ }).check();
    await page.getByRole('button', { name: 'Send review' }).click();
    await expect(title).toBeFocused();
    await expect(title).toHaveAccessibleDescription(`${long.length - 80} characters too many A title can be at most 80 characters.`);
    await expect(review).toHaveAccessibleDescription('1 character too many A review can be at most 2,000 characters.');
    await lookAtThisWidth(page, 'review-form-too-long');

    // Back within the limits, it is sent.
    await title.fill(long.slice(0, 80));
    await expect(titleCount).toHaveText('0 characters left');
    await review.fill('Our twins count along every night.');
    await page.getByRole('button', { name: 'Send review' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Thank you!' })).toBeFocused();
  });
}

test('the link open in two windows: a save from the window behind is refused with a word to reload, and the other’s words stay', async ({ context, request }) => {
  const link = await reviewLink(request, 'two-windows');
  const [first, second] = [await context.newPage(), await context.newPage()];
  await opens(first, link);
  await opens(second, link);

  await writes(first, 'From the first window', 'Read every night.');
  await expect(first.getByRole('status').filter({ hasText: 'Thank you!' })).toBeFocused();
  await writes(second, 'From the second window', 'Read every morning.');
  await expect(toasts(second).getByText(CHANGED_ELSEWHERE)).toBeVisible();
  await lookAtThisWidth(second, 'review-form-changed-elsewhere');

  // Reloaded, the second window shows the first's words and saves over them; now the first is behind.
  await second.reload();
  await expect(second.getByLabel('Title', { exact: true })).toHaveValue('From the first window');
  await writes(second, 'From the second, reloaded', 'Read every morning.');
  await expect(second.getByRole('status').filter({ hasText: 'Your changes are saved.' })).toBeFocused();
  // The first window saves again after its own save (its form knows that version), yet behind the second's.
  await writes(first, 'From the first, again', 'Read every night.');
  await expect(toasts(first).getByText(CHANGED_ELSEWHERE)).toBeVisible();

  await first.reload();
  await expect(first.getByLabel('Title', { exact: true })).toHaveValue('From the second, reloaded');
  await expect(first.getByLabel('Your review', { exact: true })).toHaveValue('Read every morning.');
});
