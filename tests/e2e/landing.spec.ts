import { expect, test, type Page } from '@playwright/test';
import { scanPage } from '../audit/accessibility';

/** The closing call-to-action section, found by its heading. */
const section = (page: Page, heading: string) => page.getByRole('region', { name: heading });

/** Opens and closes one FAQ entry from the keyboard: Enter opens it, Space closes it. */
async function expectFaqKeyboardToggle(page: Page, question: string, answerStart: string) {
  const faq = section(page, 'Frequently Asked Questions');
  const summary = faq.getByText(question, { exact: true });
  const answer = faq.getByText(answerStart);
  await expect(answer).toBeHidden();
  await summary.focus();
  await expect(summary).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(answer).toBeVisible();
  await page.keyboard.press('Space');
  await expect(answer).toBeHidden();
  await page.keyboard.press('Space');
  await expect(answer).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(answer).toBeHidden();
}

test.describe('landing pages', () => {
  test('topic page: hero, gift links, keyboard FAQ and the closing buttons to /book and /contact', async ({ page }) => {
    await page.goto('/catholic-childrens-books');
    await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const hero = page.getByRole('region', { name: await page.getByRole('heading', { level: 1 }).innerText() });
    await expect(hero.getByRole('link', { name: 'Explore Our Books' })).toHaveAttribute('href', '/book');
    for (const [label, href] of [
      ['First Communion Gifts', '/communion-gifts'],
      ['Catholic Gifts for Kids', '/catholic-kids-gifts'],
      ['Faith Formation for Kids', '/faith-formation-for-kids'],
    ] as const) {
      await expect(page.getByRole('main').getByRole('link', { name: label })).toHaveAttribute('href', href);
    }
    await expect(page.getByRole('heading', { name: 'Our Featured Book' })).toBeVisible();
    await expect(page.getByRole('link', { name: /^Learn More/ })).toHaveAttribute('href', '/book');

    const faq = section(page, 'Frequently Asked Questions');
    await expect(faq.locator('details')).toHaveCount(5);
    const question = (await faq.locator('summary').first().innerText()).trim();
    const answer = (await faq.locator('details p').first().textContent())?.trim().slice(0, 40) ?? '';
    await expectFaqKeyboardToggle(page, question, answer);

    const cta = page.getByRole('main').getByRole('region').last();
    await expect(cta.getByRole('link', { name: 'Explore Our Books' })).toHaveAttribute('href', '/book');
    await expect(cta.getByRole('link', { name: 'Contact Us' })).toHaveAttribute('href', '/contact');
    await expect(cta.getByRole('link', { name: 'Contact Us' })).toHaveAttribute('data-track', 'contact_click');
  });

  test('city page: Sydney hero, local delivery, parish support, where to find us and the call to action', async ({ page }) => {
    await page.goto('/catholic-books-sydney');
    const h1 = page.getByRole('heading', { level: 1 });
    await expect(h1).toHaveText("Catholic Children's Books from a Sydney Family");
    await expect(page.getByText('Written and published in Sydney', { exact: true })).toBeVisible();
    const hero = section(page, "Catholic Children's Books from a Sydney Family");
    await expect(hero.getByRole('link', { name: 'Explore the Book' })).toHaveAttribute('href', '/book');
    await expect(hero.getByRole('link', { name: 'Contact Us' })).toHaveAttribute('href', '/contact');
    for (const heading of ['Local Delivery Across Sydney', 'Supporting Sydney Parishes and Schools', 'Where to Find Us']) {
      await expect(page.getByRole('heading', { level: 2, name: heading })).toBeVisible();
    }
    const cta = section(page, 'Bring the Faith Home, Sydney');
    await expect(cta.getByRole('link', { name: 'Explore Our Books' })).toHaveAttribute('href', '/book');
    await expect(cta.getByRole('link', { name: 'Contact Us' })).toHaveAttribute('href', '/contact');
  });

  test('age page 5-9: its buttons, three benefit cards, four-question FAQ by keyboard', async ({ page }) => {
    await page.goto('/catholic-books-for-kids-ages-5-9');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Catholic Books for Kids Ages 5-9');
    await expect(page.getByRole('link', { name: 'Explore Books for Ages 5-9' })).toHaveAttribute('href', '/book');
    const benefits = section(page, 'Why Faith Books Matter at This Age');
    for (const card of ['Reading development', 'Deeper faith understanding', 'Early catechesis']) {
      await expect(benefits.getByRole('heading', { level: 3, name: card })).toBeVisible();
    }
    await expect(page.getByRole('link', { name: /^Learn More/ })).toHaveAttribute('href', '/book');
    await expect(page.getByRole('heading', { level: 3, name: 'Independent reading' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 3, name: 'Family conversation' })).toBeVisible();
    for (const card of ['Catholic schools', 'Homeschool', 'Parish programs']) await expect(page.getByRole('heading', { level: 3, name: card })).toBeVisible();

    await expect(section(page, 'Frequently Asked Questions').locator('details')).toHaveCount(4);
    await expectFaqKeyboardToggle(page, 'Does the book help with First Holy Communion preparation?', 'It is not a sacramental program');

    await expect(page.getByRole('link', { name: 'Shop Books for Ages 5-9' })).toHaveAttribute('href', '/book');
    await expect(page.getByRole('link', { name: 'Contact Us', exact: true }).last()).toHaveAttribute('href', '/contact');
  });

  test('counting page: the four spec buttons', async ({ page }) => {
    await page.goto('/catholic-counting-books-for-kids');
    const main = page.getByRole('main');
    for (const [label, href] of [
      ['Explore Our Counting Book', '/book'],
      ['Learn More', '/book'],
      ['Shop Counting Books', '/book'],
      ['Contact Us', '/contact'],
    ] as const) {
      // 'Learn More' carries the book's title for screen readers after its visible text.
      await expect(main.getByRole('link', { name: new RegExp(`^${label}`) }).first()).toHaveAttribute('href', href);
    }
    await expect(main.getByText('THREE Persons in the Trinity', { exact: false }).first()).toBeVisible();
  });

  test('FAQ answers open without JavaScript', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/catholic-childrens-book-guide');
    const faq = section(page, 'Frequently Asked Questions');
    const first = faq.locator('details').first();
    await first.locator('summary').click();
    await expect(first).toHaveAttribute('open', '');
    await expect(first.locator('p')).toBeVisible();
    await context.close();
  });

  test('without a GA4 ID nothing is fetched from Google, and the landing event goes to the debug log', async ({ page }) => {
    const external: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith('http://localhost')) external.push(request.url());
    });
    const debug: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'debug') debug.push(message.text());
    });
    await page.goto('/catholic-books-london');
    await expect.poll(() => debug.join('\n')).toContain('catholic_books_london_view');
    expect(debug.join('\n')).toContain('page_view');
    await page.getByRole('main').getByRole('link', { name: 'Explore the Book' }).click();
    await expect.poll(() => debug.join('\n')).toContain('explore_books_click');
    expect(external).toEqual([]);
  });

  test('axe, every rule and best practice, finds nothing on a topic, a city and an age page, FAQ open', async ({ page }) => {
    // Without motion the free-shipping banner is drawn in its final colours at once, and contrast is measured on those.
    await page.emulateMedia({ reducedMotion: 'reduce' });
    for (const path of ['/catholic-childrens-books', '/catholic-books-sydney', '/catholic-books-for-kids-ages-5-9']) {
      await page.goto(path);
      await page.evaluate(() => document.querySelectorAll('details').forEach((d) => d.setAttribute('open', '')));
      expect(await scanPage(page), `axe on ${path}`).toEqual([]);
    }
  });
});

test.describe('landing pages at 375 px', () => {
  test.use({ viewport: { width: 375, height: 812 }, hasTouch: true });

  test('the hero and its first button are visible on the first screen', async ({ page }) => {
    await page.goto('/catholic-books-for-kids-ages-5-9');
    await expect(page.getByRole('heading', { level: 1 })).toBeInViewport();
    await expect(page.getByRole('link', { name: 'Explore Books for Ages 5-9' })).toBeInViewport();
  });
});
