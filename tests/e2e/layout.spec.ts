import { expect, test, type Page } from '@playwright/test';

const HEADER_LINKS = ['Home', 'About Us', 'Our Books', 'Blog', 'Contact Us', 'Store'];
const FOOTER_LINKS = ['Home Page', 'About Our Mission', 'Explore Our Books', 'Shop Our Products', 'Read Our Blog', 'Contact Our Team'];

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
  test('home shows the banner, the six header links, the cart and account area and the footer', async ({ page }) => {
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
