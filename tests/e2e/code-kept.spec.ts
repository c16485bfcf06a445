/**
 * A promotion code once applied stays with the checkout: back to the cart and on to checkout again, a reload, a
 * second tab all find it applied (and the total with it), until the shopper removes it or it stops applying; a
 * code that ended meanwhile comes off with the reason (an ended code reads as not valid), said where the code was.
 */
import { expect, test, type Page } from '@playwright/test';
import { addToCart, asService, uniqueEmail, WIDTHS } from './support';

const BOOK = '/store/product/book-10-reasons';

async function applyCode(page: Page, code: string): Promise<void> {
  await page.getByLabel('Promotion code (optional)').fill(code);
  await page.getByRole('button', { name: 'Apply' }).click();
}

const applied = (page: Page, code: string) => page.getByRole('status').filter({ hasText: `Code ${code} applied` });

for (const size of WIDTHS) {
  test(`a code applied at checkout stays across the cart, a reload and a second tab, and is taken off with the reason when it expires, ${size.width} px`, async ({ context, request }) => {
    test.setTimeout(120_000);
    const code = `KEPT${size.width}${Date.now().toString(36).toUpperCase()}`;
    const [row] = await asService<Array<{ id: string }>>(request, 'POST', 'promotion_codes', { code, kind: 'percent', amount: 10, created_by: 'e2e@example.com' });
    const page = await context.newPage();
    await page.setViewportSize({ width: size.width, height: size.height });
    await addToCart(page, BOOK);
    await page.goto('/checkout');
    await page.getByLabel('Email').fill(uniqueEmail('kept-code'));
    await applyCode(page, code);
    await expect(applied(page, code)).toBeVisible();
    const summary = page.getByRole('complementary', { name: /Order summary/i });
    await expect(summary.getByText(`Code ${code} (10% off)`)).toBeVisible();

    // Back to the cart, then on to checkout again: still applied.
    await page.goto('/cart');
    await page.goto('/checkout');
    await expect(applied(page, code)).toBeVisible();
    await expect(summary.getByText(`Code ${code} (10% off)`)).toBeVisible();
    // A reload.
    await page.reload();
    await expect(applied(page, code)).toBeVisible();
    await page.screenshot({ path: test.info().outputPath(`code-kept-${size.width}.png`), fullPage: true });

    // A second tab of the same browser.
    const second = await context.newPage();
    await second.setViewportSize({ width: size.width, height: size.height });
    await second.goto('/checkout');
    await expect(applied(second, code)).toBeVisible();
    // Removed in one tab: off in the other too, and it stays off.
    await second.getByRole('button', { name: 'Remove' }).click();
    await expect(applied(page, code)).toHaveCount(0);
    await page.reload();
    await expect(page.getByLabel('Promotion code (optional)')).toBeVisible();
    await expect(applied(page, code)).toHaveCount(0);

    // Applied again, then the code expires: the next visit takes it off and says why. The second tab checks the
    // code it is told of too; it must have its answer before the code ends, or it is the tab that finds it ended.
    await applyCode(page, code);
    await expect(applied(page, code)).toBeVisible();
    await expect(applied(second, code)).toBeVisible();
    await asService(request, 'PATCH', `promotion_codes?id=eq.${row!.id}`, { ends_at: new Date(Date.now() - 60_000).toISOString() });
    await page.goto('/cart');
    await page.goto('/checkout');
    await expect(page.getByLabel('Promotion code (optional)')).toHaveAccessibleDescription(`Code ${code} was removed: That code is not valid. Please check it and try again.`);
    await expect(summary.getByText(`Code ${code} (10% off)`)).toHaveCount(0);
    await page.screenshot({ path: test.info().outputPath(`code-expired-${size.width}.png`), fullPage: true });
  });
}
