/**
 * Analytics consent in the browser, on the site built with a GA4 ID and the tag's requests intercepted:
 * a UK visitor is asked first and nothing reaches Google before Accept; Reject is remembered; Cookie settings
 * changes the choice by keyboard; an Australian visitor is not asked; the banner passes axe at both widths.
 */
import { test as withoutGa4, type Page } from '@playwright/test';
import { STORAGE_KEYS } from '../../src/config/constants';
import { expect, test, visitFrom, type GoogleTraffic } from './ga4-site';
import { scanPage } from '../audit/accessibility';
import { horizontalOverflow } from './support';

// One worker builds and serves the GA4 site for all of these; each visits several pages, so allow a busy machine.
test.describe.configure({ mode: 'default', timeout: 90_000 });

const banner = (page: Page) => page.getByRole('region', { name: 'Cookie choice' });

/** Waits past load and the browser's idle time, when the tag would have been injected. */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('load');
  await page.evaluate(() => new Promise((resolve) => requestIdleCallback(() => setTimeout(resolve, 500), { timeout: 2000 })));
}

const analyticsCookies = async (page: Page) => (await page.context().cookies()).filter((cookie) => cookie.name.startsWith('_ga'));
const eventNames = (traffic: GoogleTraffic) => traffic.hits().map((hit) => hit.get('en'));

/** Where the header, main content and footer sit, and how tall the page is. */
const layout = (page: Page) =>
  page.evaluate(() => [...['header', 'main', 'footer'].map((selector) => JSON.stringify(document.querySelector(selector)?.getBoundingClientRect())), document.documentElement.scrollHeight]);

/** Showing the banner moves nothing: the page's layout is the same with it hidden. */
async function expectBannerMovesNothing(page: Page): Promise<void> {
  const shown = await layout(page);
  const setBannerHidden = (hidden: boolean) =>
    page.evaluate((value) => {
      (document.querySelector('[data-consent-banner]') as HTMLElement).hidden = value;
    }, hidden);
  await setBannerHidden(true);
  const hidden = await layout(page);
  await setBannerHidden(false);
  expect(shown).toEqual(hidden);
}

test('a UK visitor is asked first: nothing reaches Google before Accept, then the tag loads and hits carry storage', async ({ page, context }) => {
  const google = await visitFrom(context, 'GB');
  await page.goto('/');
  await expect(banner(page)).toBeVisible();
  await expect(banner(page).getByRole('button', { name: 'Accept' })).toBeVisible();
  await expect(banner(page).getByRole('button', { name: 'Reject' })).toBeVisible();
  await settle(page);

  expect(google.requests.map((r) => r.url())).toEqual([]);
  expect(await analyticsCookies(page)).toEqual([]);
  await expectBannerMovesNothing(page);
  // The consent defaults are queued before the tag's first command.
  const queued = await page.evaluate(() => (window as unknown as { dataLayer: ArrayLike<unknown>[] }).dataLayer.map((args) => Array.from(args).slice(0, 2).join(' ')));
  expect(queued.slice(0, 4)).toEqual(['consent default', 'consent default', expect.stringMatching(/^js /), 'config G-E2ETEST01']);

  await banner(page).getByRole('button', { name: 'Accept' }).click();
  await expect(banner(page)).toBeHidden();
  await expect.poll(() => google.tags().length).toBe(1);
  // Events from before the choice are sent once the tag loads, with analytics storage granted.
  await expect.poll(() => eventNames(google)).toEqual(expect.arrayContaining(['page_view', 'home_page_view']));
  for (const hit of google.hits()) expect(hit.get('gcs')).toBe('G111');
  expect((await analyticsCookies(page)).map((cookie) => cookie.name)).toEqual(['_ga']);
  // Web vitals and click events keep flowing under consent.
  await expect.poll(() => eventNames(google)).toContain('web_vitals');
  await page.getByRole('main').locator('[data-track="explore_books_click"]').first().click();
  await expect.poll(() => eventNames(google)).toContain('explore_books_click');

  // The choice is remembered: the next page asks nothing and loads the tag.
  await page.goto('/about');
  await expect.poll(() => google.tags().length).toBe(2);
  await expect(banner(page)).toBeHidden();
});

test('a UK visitor who rejects is not asked again, and nothing reaches Google across reloads', async ({ page, context }) => {
  const google = await visitFrom(context, 'GB');
  await page.goto('/store');
  await banner(page).getByRole('button', { name: 'Reject' }).click();
  await expect(banner(page)).toBeHidden();
  expect(await page.evaluate((key) => localStorage.getItem(key), STORAGE_KEYS.analyticsConsent)).toBe('denied');

  for (const path of ['/store', '/']) {
    await page.goto(path);
    await settle(page);
    await expect(banner(page)).toBeHidden();
  }
  await page.reload();
  await settle(page);
  await expect(banner(page)).toBeHidden();
  expect(google.requests.map((r) => r.url())).toEqual([]);
  expect(await analyticsCookies(page)).toEqual([]);
});

test('Cookie settings in the footer reopens the banner by keyboard and changes the choice', async ({ page, context }) => {
  const google = await visitFrom(context, 'GB');
  await page.goto('/');
  await banner(page).getByRole('button', { name: 'Reject' }).click();
  await expect(banner(page)).toBeHidden();

  const settings = page.getByRole('contentinfo').getByRole('button', { name: 'Cookie settings' });
  await settings.focus();
  await page.keyboard.press('Enter');
  await expect(banner(page)).toBeVisible();
  await expect(banner(page)).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(banner(page).getByRole('link', { name: 'Privacy Policy' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(banner(page).getByRole('button', { name: 'Accept' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(banner(page)).toBeHidden();
  await expect(settings).toBeFocused();
  await expect.poll(() => google.tags().length).toBe(1);
  await expect.poll(() => google.hits().length).toBeGreaterThan(0);
  for (const hit of google.hits()) expect(hit.get('gcs')).toBe('G111');
});

test('an Australian visitor gets no banner and analytics runs', async ({ page, context }) => {
  const google = await visitFrom(context, 'AU');
  await page.goto('/');
  await expect.poll(() => google.tags().length).toBe(1);
  await expect.poll(() => eventNames(google)).toEqual(expect.arrayContaining(['page_view', 'home_page_view']));
  for (const hit of google.hits()) expect(hit.get('gcs')).toBe('G111');
  await expect(banner(page)).toBeHidden();
  await expect(page.getByRole('contentinfo').getByRole('button', { name: 'Cookie settings' })).toBeVisible();
});

test('a visitor whose country is unknown is asked', async ({ page, context }) => {
  const google = await visitFrom(context, undefined);
  await page.goto('/');
  await expect(banner(page)).toBeVisible();
  await settle(page);
  expect(google.requests).toEqual([]);
});

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 375, height: 812 },
]) {
  test(`axe finds nothing with the banner open at ${viewport.width} px`, async ({ page, context }) => {
    await page.setViewportSize(viewport);
    await visitFrom(context, 'GB');
    await page.emulateMedia({ reducedMotion: 'reduce' });
    for (const path of ['/', '/catholic-books-london']) {
      await page.goto(path);
      await expect(banner(page)).toBeVisible();
      expect(await scanPage(page), `axe on ${path}`).toEqual([]);
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    }
  });
}

withoutGa4('without a GA4 ID there is no banner, no Cookie settings and no region look-up', async ({ page }) => {
  const lookUps: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/visitor-region')) lookUps.push(request.url());
  });
  await page.goto('/');
  await settle(page);
  await expect(page.locator('[data-consent-banner]')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Cookie settings' })).toHaveCount(0);
  expect(lookUps).toEqual([]);
});
