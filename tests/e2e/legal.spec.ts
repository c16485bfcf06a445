import { expect, test } from '@playwright/test';

const EMAIL = 'hello@awesomecatholickids.com.au';

test.describe('legal pages', () => {
  for (const [path, title] of [
    ['/privacy-policy', 'Privacy Policy'],
    ['/terms-of-service', 'Terms of Service'],
  ] as const) {
    test(`${path} shows its title, last-updated date and text`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
      await expect(page).toHaveTitle(new RegExp(`^${title}`));
      await expect(page.getByText(/^Last updated \d{1,2} [A-Z][a-z]+ \d{4}$/)).toBeVisible();
      await expect(page.getByRole('heading', { level: 2, name: 'Contact us' })).toBeVisible();
      await expect(page.getByRole('main').getByRole('link', { name: EMAIL }).last()).toHaveAttribute('href', `mailto:${EMAIL}`);
    });
  }

  test('the terms state the returns rules and the minimum age', async ({ page }) => {
    await page.goto('/terms-of-service');
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { name: 'Returns and refunds' })).toBeVisible();
    await expect(main).toContainText('we do not offer refunds for change of mind');
    await expect(main).toContainText('10% restocking fee');
    await expect(main).toContainText('original shipping cost is not refunded');
    await expect(main).toContainText(/Digital downloads\s+are refunded only if they are faulty/);
    await expect(main).toContainText('for people aged 13 and over');
  });

  test('the footer links reach both pages', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('contentinfo').getByRole('link', { name: 'Terms of Service' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Terms of Service' })).toBeVisible();
    await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy Policy' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeVisible();
  });
});

test.describe('contact page', () => {
  test('shows the email card, the social card and the form area', async ({ page }) => {
    await page.goto('/contact');
    await expect(page.getByRole('heading', { level: 1, name: 'Contact Us' })).toBeVisible();

    const email = page.getByRole('region', { name: 'Email Us' });
    await expect(email.getByRole('link', { name: EMAIL })).toHaveAttribute('href', `mailto:${EMAIL}`);

    const social = page.getByRole('region', { name: 'Connect With Us' });
    for (const [name, href] of [
      ['Instagram', /^https:\/\/www\.instagram\.com\//],
      ['Facebook', /^https:\/\/www\.facebook\.com\//],
    ] as const) {
      const link = social.getByRole('link', { name: `${name} (opens in a new tab)` });
      await expect(link).toHaveAttribute('href', href);
      await expect(link).toHaveAttribute('target', '_blank');
      await expect(link).toHaveAttribute('rel', /noopener/);
    }

    const form = page.getByRole('region', { name: 'Send Us a Message' });
    await expect(form.locator('#contact-form')).toHaveAttribute('data-island', 'contact');
  });

  test('carries a no-JavaScript note that points to the email address', async ({ page }) => {
    // Playwright's javaScriptEnabled: false does not make Chromium render <noscript>, so check its markup.
    await page.goto('/contact');
    const note = page.getByRole('region', { name: 'Send Us a Message' }).locator('noscript');
    const markup = await note.innerHTML();
    expect(markup).toContain('The contact form needs JavaScript.');
    expect(markup).toContain(`href="mailto:${EMAIL}"`);
  });
});
