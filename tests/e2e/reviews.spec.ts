/**
 * The book's reviews are on /book and on its product page, in the page's own HTML (no script needed), with
 * the rating they average to and each review's stars as text; the page's structured data marks up exactly
 * those reviews. At a phone's width and a desktop's. (axe scans both pages at both widths in quality.spec.ts.)
 */
import { expect, test, type Page } from '@playwright/test';
import { readBooks } from '@/features/catalog/book-files';
import { horizontalOverflow } from './support';

const book = readBooks().find((b) => b.featured && b.reviews.length > 0)!;
const average = Math.round((book.reviews.reduce((sum, r) => sum + r.rating, 0) / book.reviews.length) * 10) / 10;

async function expectReviewsShown(page: Page) {
  const section = page.getByRole('region', { name: 'What Readers Say' });
  await expect(section).toBeVisible();
  await expect(section).toContainText(`Rated ${average} out of 5 stars from ${book.reviews.length} reviews`);
  const items = section.getByRole('list', { name: 'Reviews' }).getByRole('listitem');
  await expect(items).toHaveCount(book.reviews.length);
  for (const [i, review] of book.reviews.entries()) {
    await expect(items.nth(i)).toContainText(review.body);
    await expect(items.nth(i)).toContainText(review.author);
    await expect(items.nth(i)).toContainText(`${review.rating} out of 5 stars`);
  }
  await expect(items.first().getByText(book.reviews[0]!.body)).toBeVisible();
}

/** The reviews the page's JSON-LD marks up, by their words. */
async function markedUpReviews(page: Page): Promise<string[]> {
  const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
  return blocks.flatMap((text) => {
    const value = JSON.parse(text) as { review?: Array<{ reviewBody: string }> };
    return value.review?.map((r) => r.reviewBody) ?? [];
  });
}

for (const width of [375, 1280]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: width === 375 ? 812 : 900 } });

    for (const path of ['/book', `/store/product/${book.id}`]) {
      test(`${path} shows the book's reviews, marks up the same ones`, async ({ page }) => {
        test.setTimeout(120_000);
        await page.goto(path);
        await expectReviewsShown(page);
        expect(await markedUpReviews(page)).toEqual(book.reviews.map((r) => r.body));
        expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
        const section = page.getByRole('region', { name: 'What Readers Say' });
        await section.screenshot({ path: test.info().outputPath(`reviews${path.replaceAll('/', '-')}-${width}.png`) });
        // The section's top as the visitor scrolls to it, below the sticky header.
        await section.evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 140));
        await page.screenshot({ path: test.info().outputPath(`reviews${path.replaceAll('/', '-')}-${width}-top.png`) });
      });
    }
  });
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the reviews are in the page as built', async ({ page }) => {
    await page.goto('/book');
    await expectReviewsShown(page);
  });
});

test('a landing page that shows no reviews marks none up', async ({ page }) => {
  await page.goto('/catholic-childrens-books');
  await expect(page.getByRole('region', { name: 'What Readers Say' })).toHaveCount(0);
  expect(await markedUpReviews(page)).toEqual([]);
  const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
  expect(blocks.some((text) => text.includes('"Product"'))).toBe(true);
  expect(blocks.some((text) => text.includes('AggregateRating'))).toBe(false);
});
