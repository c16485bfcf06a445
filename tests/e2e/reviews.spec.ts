/**
 * The book's reviews are on /book and on its product page, in the page's own HTML (no script needed), with
 * the rating they average to and each review's stars as text; the page's structured data marks up exactly
 * those reviews. At a phone's width and a desktop's. (axe scans both pages at both widths in quality.spec.ts.)
 *
 * And a buyer's review, end to end, at 375 and at 1280 px, each width with its own buyer and order: an order
 * paid, its label printed, Delivered posted from the shipping platform's stand-in, the scheduled run emails one
 * review request; five stars and a sentence from its link; the review in /admin, rejected (its link then says it
 * was not published), then published; both Publishes pressed together, so one local rebuild can show both, and
 * the book page shows them with "Verified buyer" and marks them up. An opted-out buyer and a refunded order get
 * no request, a second delivery event sends nothing more, and a link altered by one character is refused.
 */
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { readBooks } from '@/features/catalog/book-files';
import { LOCAL_WEBHOOK_SECRET } from '../../functions/_lib/providers/local-shipping';
import { STARSHIPIT_SIGNATURE_HEADER, signStarshipitBody } from '../../functions/_lib/providers/starshipit';
import { deliveredOrderItem, deliveredOrderRow } from '../helpers/delivered-order';
import { mailsTo } from './mailbox';
import { asService, buysThroughCheckout, deliveredFromTestPage, grantStaff, horizontalOverflow, lookAtThisWidth, orderNumberOf, staffSignsIn, uniqueEmail, WIDTHS } from './support';

const book = readBooks().find((b) => b.featured && b.reviews.length > 0)!;

/** What the reviews section shows: each review's words and stars, in order (a buyer's published reviews come first). */
async function shownReviews(page: Page): Promise<Array<{ text: string; rating: number }>> {
  const items = page.getByRole('region', { name: 'What Readers Say' }).getByRole('list', { name: 'Reviews' }).getByRole('listitem');
  return (await items.allTextContents()).map((text) => ({ text, rating: Number(/(\d) out of 5 stars/.exec(text)?.[1]) }));
}

async function expectReviewsShown(page: Page) {
  const section = page.getByRole('region', { name: 'What Readers Say' });
  await expect(section).toBeVisible();
  const shown = await shownReviews(page);
  // The book file's reviews, in its order, after any buyer's published review.
  const fromFile = shown.slice(shown.length - book.reviews.length);
  expect(shown.length).toBeGreaterThanOrEqual(book.reviews.length);
  for (const [i, review] of book.reviews.entries()) {
    expect(fromFile[i]!.text).toContain(review.body);
    expect(fromFile[i]!.text).toContain(review.author);
    expect(fromFile[i]!.rating).toBe(review.rating);
  }
  const average = Math.round((shown.reduce((sum, r) => sum + r.rating, 0) / shown.length) * 10) / 10;
  await expect(section).toContainText(`Rated ${average} out of 5 stars from ${shown.length} reviews`);
  await expect(section.getByText(book.reviews[0]!.body)).toBeVisible();
}

/** The reviews the page's JSON-LD marks up, by their words, and the count its rating states. */
async function markedUp(page: Page): Promise<{ bodies: string[]; count: number | undefined }> {
  const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
  const products = blocks.map((text) => JSON.parse(text) as { review?: Array<{ reviewBody: string }>; aggregateRating?: { reviewCount: number } }).filter((v) => v.review);
  return { bodies: products.flatMap((p) => p.review!.map((r) => r.reviewBody)), count: products[0]?.aggregateRating?.reviewCount };
}

async function markedUpReviews(page: Page): Promise<string[]> {
  return (await markedUp(page)).bodies;
}

for (const width of [375, 1280]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: width === 375 ? 812 : 900 } });

    for (const path of ['/book', `/store/product/${book.id}`]) {
      test(`${path} shows the book's reviews, marks up the same ones`, async ({ page }) => {
        test.setTimeout(120_000);
        await page.goto(path);
        await expectReviewsShown(page);
        // Exactly the reviews shown are marked up.
        const shown = await shownReviews(page);
        const marked = await markedUp(page);
        expect(marked.count).toBe(shown.length);
        expect(marked.bodies.map((body, i) => shown[i]!.text.includes(body))).toEqual(shown.map(() => true));
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

test('a review with a long unbroken run of letters wraps inside its card on a phone', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto('/book');
  const list = page.getByRole('region', { name: 'What Readers Say' }).getByRole('list', { name: 'Reviews' });
  // A buyer may write a link or a row of x's; the first card's words as such a buyer's, drawn by the built page's CSS.
  await list
    .getByRole('blockquote')
    .first()
    .evaluate((quote) => {
      quote.querySelector('p')!.textContent = `So good ${'x'.repeat(200)} truly`;
    });
  for (const right of await list.getByRole('listitem').evaluateAll((items) => items.map((item) => item.getBoundingClientRect().right))) {
    expect(right).toBeLessThanOrEqual(375);
  }
});

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

const REVIEW_SUBJECT = /^How was your order \d+\?$/;
const requestsTo = async (email: string) => (await mailsTo(email)).filter((m) => REVIEW_SUBJECT.test(m.subject));
const runRequests = async (request: APIRequestContext) => {
  const answer = await request.post('/.netlify/functions/review-requests');
  expect(answer.ok(), await answer.text()).toBe(true);
};
/** The carrier's delivery, as the stand-in signs it: a second one carries its own time, so it is a new event. */
const deliveredEvent = (request: APIRequestContext, number: string) => {
  const body = JSON.stringify({ order_number: number, carrier_name: 'Australia Post', tracking_status: 'Delivered', last_updated_date: new Date().toISOString() });
  return request.post('/api/shipping-webhook', { headers: { 'content-type': 'application/json', [STARSHIPIT_SIGNATURE_HEADER]: signStarshipitBody(LOCAL_WEBHOOK_SECRET, body) }, data: body });
};
/** Moves an order's delivery back past REVIEW_REQUEST_DELAY_DAYS (3 by default), as the days would. */
const deliveredDaysAgo = (request: APIRequestContext, orderId: string, days: number) =>
  asService(request, 'PATCH', `orders?id=eq.${orderId}`, { delivered_at: new Date(Date.now() - days * 86_400_000).toISOString() });

/** A paid order of the book, delivered four days ago, as fixtures: for the buyers who must not be asked. */
async function deliveredFixture(request: APIRequestContext, email: string, fields: Record<string, unknown> = {}): Promise<string> {
  const [order] = await asService<Array<{ id: string }>>(request, 'POST', 'orders', { ...deliveredOrderRow(email, { name: 'Fixture Buyer', deliveredDaysAgo: 4 }), ...fields });
  await asService(request, 'POST', 'order_items', deliveredOrderItem(order!.id, book));
  return order!.id;
}

/** One buyer's order at one width, from the order paid to the review sent from the request's link. */
interface Journey {
  size: (typeof WIDTHS)[number];
  email: string;
  number: string;
  link: string;
  sentence: string;
  title: string;
  /** When Publish was pressed for this buyer's review. */
  pressed?: number;
}

/** At the page's width: the order paid, its label printed, Delivered from the platform's TEST page, one request sent. */
async function buyerIsAsked(page: Page, request: APIRequestContext, size: Journey['size']): Promise<Journey> {
  const email = uniqueEmail(`reviewer-${size.width}`);
  const orderId = await buysThroughCheckout(request, book.id, 1, email);
  const number = await orderNumberOf(request, orderId);
  await page.goto('/admin');
  await page.getByLabel('Search by order number or email').fill(email);
  await page.getByRole('link', { name: number, exact: true }).click();
  await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Print label', exact: true }).click()]);
  await expect(page.getByTestId('shipment-state')).toHaveText(/Label printed/);
  await deliveredFromTestPage(page, number);

  // Not before the delay; then one request, and a second delivery event sends nothing more.
  await runRequests(request);
  expect(await requestsTo(email)).toEqual([]);
  await deliveredDaysAgo(request, orderId, 4);
  await runRequests(request);
  expect((await deliveredEvent(request, number)).ok()).toBe(true);
  await runRequests(request);
  const asked = await requestsTo(email);
  expect(asked).toHaveLength(1);
  expect(asked[0]!.subject).toBe(`How was your order ${number}?`);
  expect(asked[0]!.headers?.['List-Unsubscribe']).toMatch(/^<http/);
  const link = /Review .+: (http\S+)/.exec(asked[0]!.text)![1]!;
  return { size, email, number, link, sentence: `Our twins count along with it every night (${size.width} px, ${Date.now()}).`, title: `Counted to ten at ${size.width} px` };
}

/** At the page's width: a link altered by one character refused; the form's errors; five stars and a sentence sent. */
async function buyerReviews(page: Page, journey: Journey) {
  const { link } = journey;
  const at = link.indexOf('#') + 20;
  await page.goto(`${link.slice(0, at)}${link[at] === 'A' ? 'B' : 'A'}${link.slice(at + 1)}`);
  await expect(page.getByRole('alert')).toHaveText(/This review link is not valid/);

  // The form: its errors marked, described and the first focused. (From another page: the same address with another
  // fragment would not load the page again.)
  await page.goto('/about');
  await page.goto(link);
  await expect(page.getByRole('heading', { name: `Your review of ${book.title}` })).toBeVisible();
  await expect(page.getByLabel('Name to show')).toHaveValue('Test S.');
  await page.getByRole('button', { name: 'Send review' }).click();
  await expect(page.getByRole('radio', { name: '1 out of 5 stars' })).toBeFocused();
  await expect(page.getByText('Please choose from 1 to 5 stars.')).toBeVisible();
  await expect(page.getByLabel('Title', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  // Described by its characters left, then its error.
  await expect(page.getByLabel('Title', { exact: true })).toHaveAccessibleDescription('80 characters left Please give your review a short title.');
  await lookAtThisWidth(page, 'review-form-errors');
  await page.getByRole('radio', { name: '5 out of 5 stars' }).check();
  await page.getByLabel('Title', { exact: true }).fill(journey.title);
  await page.getByLabel('Your review', { exact: true }).fill(journey.sentence);
  await page.getByRole('checkbox', { name: /may be published/ }).check();
  await page.getByRole('button', { name: 'Send review' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Thank you!' })).toBeFocused();
  await lookAtThisWidth(page, 'review-form-sent');
}

/**
 * At the page's width, by keyboard: the review rejected with a note (shown while it is rejected), and its link then
 * says so with no form to edit. The pressed button goes, and focus stays on the review rather than falling to the page.
 */
async function publisherRejects(page: Page, journey: Journey) {
  await page.goto('/admin#reviews');
  const item = page.getByRole('listitem').filter({ hasText: journey.sentence });
  await expect(item).toBeVisible({ timeout: 15_000 });
  await expect(item).toContainText(`Order ${journey.number}`);
  await expect(item).toContainText('Not on the site yet.');
  await expect(page.getByText(/\d+ asked · \d+ answered · \d+ published/)).toBeVisible();
  await lookAtThisWidth(page, 'reviews-admin');
  await item.getByLabel(/Note for rejecting/).focus();
  await page.keyboard.type('Asked the buyer about the name');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(item.getByText('Rejected: Asked the buyer about the name')).toBeVisible();
  await expect(item.getByRole('heading', { level: 3 })).toBeFocused();
  await expect(item.getByRole('button', { name: /^Reject/ })).toHaveCount(0);

  await page.goto(journey.link);
  await expect(page.getByText(/decided not to publish it/)).toBeVisible();
  await expect(page.getByRole('button', { name: /Send review|Save changes/ })).toHaveCount(0);
  await lookAtThisWidth(page, 'review-form-rejected');
}

/** At the page's width, by keyboard: Publish after all; a published review offers Unpublish, not Reject. */
async function publisherPublishes(page: Page, journey: Journey) {
  const item = page.getByRole('listitem').filter({ hasText: journey.sentence });
  await item.getByRole('button', { name: /^Publish/ }).focus();
  journey.pressed = Date.now();
  await page.keyboard.press('Enter');
  await expect(item.getByText('published', { exact: true })).toBeVisible();
  await expect(item.getByRole('heading', { level: 3 })).toBeFocused();
  await expect(item.getByText(/^Rejected:/)).toHaveCount(0);
  await expect(item.getByRole('button', { name: /^Unpublish/ })).toBeVisible();
  await expect(item.getByRole('button', { name: /^Reject/ })).toHaveCount(0);
  await lookAtThisWidth(page, 'reviews-admin-published', { axe: false });
}

test('buyers are asked once after delivery, review from the link, and the published reviews are on the rebuilt book page, at 375 and 1280 px', async ({ page, request }) => {
  // Most of it is the local rebuild of the whole site on a shared machine.
  test.setTimeout(900_000);
  const optedOut = uniqueEmail('opted-out');
  await deliveredFixture(request, optedOut);
  await asService(request, 'POST', 'rpc/marketing_opt_out', { p_email: optedOut, p_via: 'reminder' });
  const refunded = uniqueEmail('refunded');
  await deliveredFixture(request, refunded, { payment_status: 'refund_due', refunded_at: new Date().toISOString(), refund_id: 're_fixture' });
  const publisher = uniqueEmail('reviews-publisher');
  await grantStaff(request, publisher);
  await staffSignsIn(page, publisher);

  // Each width its own buyer and order, from the order paid to the review sent.
  const journeys: Journey[] = [];
  for (const size of WIDTHS) {
    await page.setViewportSize({ width: size.width, height: size.height });
    const journey = await buyerIsAsked(page, request, size);
    await buyerReviews(page, journey);
    journeys.push(journey);
  }
  expect(await requestsTo(optedOut)).toEqual([]);
  expect(await requestsTo(refunded)).toEqual([]);

  // The publisher at each width: first each rejection, then both Publishes together, so one rebuild can show both.
  for (const journey of journeys) {
    await page.setViewportSize({ width: journey.size.width, height: journey.size.height });
    await publisherRejects(page, journey);
  }
  await page.goto('/admin#reviews');
  for (const journey of journeys) {
    await page.setViewportSize({ width: journey.size.width, height: journey.size.height });
    await publisherPublishes(page, journey);
  }

  // After the rebuild the book page shows both, with "Verified buyer", and marks them up.
  await expect
    .poll(
      async () => {
        const html = await (await request.get('/book')).text();
        return journeys.every((j) => html.includes(j.sentence));
      },
      { timeout: 840_000, intervals: [1000] },
    )
    .toBe(true);
  const shownAt = Date.now();
  for (const journey of journeys) {
    const seconds = ((shownAt - journey.pressed!) / 1000).toFixed(1);
    test.info().annotations.push({ type: `Publish at ${journey.size.width} px → /book shows both`, description: `${seconds} s` });
    console.log(`[reviews] Publish at ${journey.size.width} px → /book shows both reviews: ${seconds} s`);
  }
  for (const size of WIDTHS) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await page.goto('/book');
    for (const journey of journeys) {
      const shown = page.getByRole('region', { name: 'What Readers Say' }).getByRole('listitem').filter({ hasText: journey.sentence });
      await expect(shown).toContainText('Verified buyer');
      await expect(shown).toContainText(journey.title);
      await expect(shown).toContainText('5 out of 5 stars');
    }
    const marked = await markedUp(page);
    for (const journey of journeys) expect(marked.bodies).toContain(journey.sentence);
    expect(marked.count).toBe((await shownReviews(page)).length);
    // The section itself (a full-page shot leaves below-the-fold sections undrawn).
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    const section = page.getByRole('region', { name: 'What Readers Say' });
    await section.scrollIntoViewIfNeeded();
    await section.screenshot({ path: test.info().outputPath(`reviews-book-section-${size.width}.png`) });
  }
  // Each link now says its review is published, and the form is gone.
  for (const journey of journeys) {
    await page.goto('/about');
    await page.goto(journey.link);
    await expect(page.getByText(/is published/)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Send review' })).toHaveCount(0);
  }
});
