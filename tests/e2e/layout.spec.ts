import { expect, test, type Page } from '@playwright/test';
import { grantStaff, signIn, uniqueEmail } from './support';

const HEADER_LINKS = ['Home', 'About Us', 'Our Books', 'Blog', 'Contact Us', 'Store', 'Schools'];
const FOOTER_LINKS = ['Home Page', 'About Our Mission', 'Explore Our Books', 'Shop Our Products', 'Schools & Parishes', 'Read Our Blog', 'Contact Our Team'];

async function expectSharedLayout(page: Page) {
  await expect(page.getByRole('region', { name: 'Free shipping offer' })).toContainText('Free shipping on Australian orders over $75 AUD');
  const footer = page.getByRole('contentinfo');
  const quickLinks = footer.getByRole('navigation', { name: 'Quick Links' });
  for (const label of FOOTER_LINKS) await expect(quickLinks.getByRole('link', { name: label })).toBeVisible();
  await expect(footer).toContainText(`© ${new Date().getFullYear()}`);
  await expect(footer).toContainText('Sydney, Australia');
  await expect(footer.getByRole('link', { name: /@/ })).toHaveAttribute('href', /^mailto:/);
  await expect(footer.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/privacy-policy');
  await expect(footer.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute('href', '/terms-of-service');
  await expect(footer.getByRole('link', { name: /Instagram/ })).toBeVisible();
  await expect(footer.getByRole('link', { name: /Facebook/ })).toBeVisible();
}

test.describe('desktop layout', () => {
  test('home shows the banner, the header links (the schools page among them), the cart and account area and the footer', async ({ page }) => {
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const label of HEADER_LINKS) await expect(nav.getByRole('link', { name: label, exact: true })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Home', exact: true })).toHaveAttribute('aria-current', 'page');
    await expect(page.getByRole('banner').getByRole('link', { name: /Cart/ })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeHidden();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Discover Our Books' })).toHaveAttribute('href', '/book');
    await expect(page.getByRole('heading', { name: 'Latest Resources' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Visit Our Blog' })).toHaveAttribute('href', '/blog');
    await expect(page.getByRole('link', { name: 'Contact Us', exact: true }).last()).toHaveAttribute('href', '/contact');
    await expectSharedLayout(page);
  });

  test('the header stays at the top while the page scrolls', async ({ page }) => {
    await page.goto('/');
    await page.mouse.wheel(0, 1500);
    await expect(page.getByRole('banner')).toBeInViewport();
  });

  test('about shows the mission, the author, the three values and follow links', async ({ page }) => {
    await page.goto('/about');
    await expect(page.getByRole('heading', { name: 'Our Mission' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'About the Author' })).toBeVisible();
    for (const value of ['Faith', 'Joy', 'Growth']) await expect(page.getByRole('heading', { name: value, exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Follow Us' }).first()).toBeVisible();
    await expectSharedLayout(page);
  });
});

/**
 * The header's row as drawn: the logo's name on at most two lines (one where the full menu shows) inside the
 * header, and no box of the row overlapping another or leaving the window.
 */
async function headerProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const header = document.querySelector('header')!;
    const row = header.firstElementChild!;
    const logo = row.querySelector('a[href="/"] span')!;
    const problems: string[] = [];
    const lineHeight = Number.parseFloat(getComputedStyle(logo).lineHeight);
    const lines = Math.round(logo.getBoundingClientRect().height / lineHeight);
    const menuShown = row.querySelector('nav')!.getClientRects().length > 0;
    if (lines > (menuShown ? 1 : 2)) problems.push(`the logo wraps to ${lines} lines`);
    if (logo.getBoundingClientRect().bottom > header.getBoundingClientRect().bottom || logo.getBoundingClientRect().top < header.getBoundingClientRect().top) problems.push('the logo is clipped');
    // Every visible link and button of the row, left to right: none may overlap the next.
    const boxes = [...row.querySelectorAll('a, button')]
      .filter((element) => element.getClientRects().length > 0 && getComputedStyle(element).visibility !== 'hidden')
      .filter((element) => !element.closest('[role="dialog"], dialog'))
      .map((element) => ({ name: (element.textContent ?? '').trim() || element.getAttribute('aria-label') || element.getAttribute('title') || element.tagName, box: element.getBoundingClientRect() }))
      .filter(({ box }) => box.width > 0)
      .sort((a, b) => a.box.left - b.box.left);
    for (let i = 1; i < boxes.length; i++) {
      const [before, after] = [boxes[i - 1]!, boxes[i]!];
      if (before.box.right > after.box.left + 0.5 && before.box.bottom > after.box.top && after.box.bottom > before.box.top) problems.push(`"${before.name}" overlaps "${after.name}"`);
    }
    // Inside the page's margins, as the rest of the page is.
    const inner = row.getBoundingClientRect();
    const [padLeft, padRight] = [Number.parseFloat(getComputedStyle(row).paddingLeft), Number.parseFloat(getComputedStyle(row).paddingRight)];
    for (const { name, box } of boxes) if (box.left < inner.left + padLeft - 0.5 || box.right > inner.right - padRight + 0.5) problems.push(`"${name}" leaves the page's margins`);
    // The menu's links and the account buttons each keep to one line.
    for (const element of row.querySelectorAll('nav a, [data-account] a, [data-account] button')) {
      if (element.getClientRects().length === 0) continue;
      const line = Number.parseFloat(getComputedStyle(element).lineHeight);
      const text = element.querySelector('span:not(.sr-only)') ?? element;
      if ((element.textContent ?? '').trim() && text.getBoundingClientRect().height > line * 1.5 + Number.parseFloat(getComputedStyle(element).paddingTop) * 2) {
        problems.push(`"${(element.textContent ?? '').trim()}" wraps`);
      }
    }
    if (header.getBoundingClientRect().height > 72) problems.push(`the header is ${header.getBoundingClientRect().height} px high`);
    return problems;
  });
}

test.describe('the header holds from 320 to 1440 px', () => {
  const widths = [320, 375, 768, 1024, 1280, 1440];

  test('signed out', async ({ page }) => {
    await page.goto('/about');
    for (const width of widths) {
      await page.setViewportSize({ width, height: 800 });
      await expect(page.getByRole('banner').getByRole('link', { name: /Cart/ })).toBeVisible();
      expect(await headerProblems(page), `${width} px`).toEqual([]);
    }
  });

  test('signed in as staff, with the back-office link and the name', async ({ page, request }) => {
    const email = uniqueEmail('header-staff');
    await grantStaff(request, email);
    await signIn(page, email);
    await page.goto('/about');
    for (const width of widths) {
      await page.setViewportSize({ width, height: 800 });
      if (width >= 1024) await expect(page.getByRole('banner').getByRole('link', { name: /Back office/ })).toBeVisible();
      else await expect(page.getByRole('button', { name: 'Open menu' })).toBeVisible();
      expect(await headerProblems(page), `${width} px`).toEqual([]);
      await page.screenshot({ path: test.info().outputPath(`header-staff-${width}.png`) });
    }
  });
});

test.describe('free-shipping banner', () => {
  test('dismissal fades it out and survives a reload', async ({ page }) => {
    await page.goto('/');
    const banner = page.getByRole('region', { name: 'Free shipping offer' });
    await expect(banner).toBeVisible();
    await banner.getByRole('button', { name: 'Dismiss free shipping message' }).click();
    await expect(banner).toBeHidden();
    expect(await page.evaluate(() => localStorage.getItem('freeShippingBannerDismissed'))).toBe('true');
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(banner).toBeHidden();
    await page.goto('/about');
    await expect(banner).toBeHidden();
  });
});

test.describe('mobile layout at 375 px', () => {
  test.use({ viewport: { width: 375, height: 812 }, hasTouch: true });

  test('the menu toggle opens a full-screen menu with every link and Sign In, and a link closes it', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
    const toggle = page.getByRole('button', { name: 'Open menu' });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await toggle.click();
    const menu = page.getByRole('dialog', { name: 'Menu' });
    await expect(menu).toBeVisible();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const box = await menu.boundingBox();
    expect(box?.width).toBe(375);
    for (const label of HEADER_LINKS) await expect(menu.getByRole('link', { name: label, exact: true })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Sign In' })).toBeVisible();
    await menu.getByRole('link', { name: 'About Us' }).click();
    await expect(page).toHaveURL(/\/about$/);
    await expect(page.getByRole('dialog', { name: 'Menu' })).toBeHidden();
    await expectSharedLayout(page);
  });

  test('the menu is keyboard usable: Escape closes it and focus returns to the toggle', async ({ page }) => {
    await page.goto('/');
    const toggle = page.getByRole('button', { name: 'Open menu' });
    await toggle.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('dialog', { name: 'Menu' });
    await expect(menu).toBeVisible();
    await page.keyboard.press('Tab');
    await expect(menu.locator(':focus')).toHaveCount(1);
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(toggle).toBeFocused();
  });
});

test.describe('not found and redirects', () => {
  test('an unknown path answers 404 with the not-found page, noindex and a way home', async ({ page }) => {
    const response = await page.goto('/this-page-does-not-exist');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
    await expect(page.getByRole('img', { name: /logo/i })).toBeVisible();
    await page.getByRole('link', { name: 'Return to Homepage' }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('/checkout-v2 ends on /checkout with a permanent redirect', async ({ page, request }) => {
    const response = await request.get('/checkout-v2', { maxRedirects: 0 });
    expect(response.status()).toBe(301);
    expect(response.headers().location).toBe('/checkout');
    await page.goto('/checkout-v2');
    await expect(page).toHaveURL(/\/checkout$/);
  });

  test('robots.txt and sitemap.xml are served', async ({ request }) => {
    const robots = await request.get('/robots.txt');
    expect(await robots.text()).toContain('Sitemap: ');
    const sitemap = await request.get('/sitemap.xml');
    expect(sitemap.status()).toBe(200);
    expect(await sitemap.text()).toContain('<sitemapindex');
  });

  test('pages carry the security headers from netlify.toml', async ({ request }) => {
    const headers = (await request.get('/')).headers();
    expect(headers['content-security-policy']).toContain("default-src 'self'");
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['strict-transport-security']).toContain('max-age=');
    expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(headers['permissions-policy']).toContain('camera=()');
  });

  test('text is sent compressed, as Netlify sends it; images as they are', async ({ request }) => {
    const page = await request.get('/', { headers: { 'accept-encoding': 'br, gzip' } });
    expect(page.headers()['content-encoding']).toBe('br');
    expect(page.headers().vary).toContain('Accept-Encoding');
    expect(await page.text()).toContain('<html');
    const gzip = await request.get('/book', { headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers()['content-encoding']).toBe('gzip');
    const image = await request.get('/favicon.ico', { headers: { 'accept-encoding': 'br' } });
    expect(image.headers()['content-encoding']).toBeUndefined();
  });
});
