import { expect, test, type Page } from '@playwright/test';
import { asService, horizontalOverflow } from './support';

// A live-catalog request still on its way when a test ends is dropped, not fetched into a closed page.
test.afterEach(({ page }) => page.unrouteAll({ behavior: 'ignoreErrors' }));

const BOOK = '10 Reasons Why Being Catholic is Awesome!';

async function cartBadge(page: Page) {
  return page.getByRole('banner').getByTestId('cart-badge');
}

test.describe('store search', () => {
  test('finds the book by a term, by the search parameter, and shows the empty state for no match', async ({ page }) => {
    await page.goto('/store');
    const search = page.getByPlaceholder("Search Catholic children's books...");
    await expect(page.getByRole('heading', { name: BOOK })).toBeVisible();
    await search.fill('COUNTING');
    await expect(page.getByRole('heading', { name: BOOK })).toBeVisible();
    await expect(page).toHaveURL(/search=COUNTING/);

    await search.fill('zebra-unicorn');
    await expect(page.getByText('No products found matching your search')).toBeVisible();
    await page.getByRole('button', { name: 'Clear Search' }).click();
    await expect(page.getByRole('heading', { name: BOOK })).toBeVisible();
    await expect(search).toHaveValue('');

    await page.goto('/store?search=nothing-like-this');
    await expect(page.getByText('No products found matching your search')).toBeVisible();
    await page.goto("/store?search=children's");
    await expect(page.getByRole('heading', { name: BOOK })).toBeVisible();
  });

  test('the store is useful before JavaScript runs', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/store');
    await expect(page.getByRole('heading', { name: BOOK })).toBeVisible();
    await expect(page.getByText('$22.00').first()).toBeVisible();
    await context.close();
  });
});

test.describe('shopping', () => {
  test('open the product, change quantity, add to cart, see badge and drawer, and keep the cart across reloads and tabs', async ({ page, context }) => {
    await page.goto('/store');
    await page.getByRole('link', { name: BOOK }).click();
    await expect(page).toHaveURL(/\/store\/product\/book-10-reasons$/);
    await expect(page.getByRole('heading', { level: 1, name: BOOK })).toBeVisible();
    await expect(page.getByText('In Stock')).toBeVisible();

    const quantity = page.getByLabel('Quantity', { exact: true });
    // Digits only as they are typed; what is left that is not a quantity becomes 1 on leaving the field.
    await quantity.fill('abc');
    await expect(quantity).toHaveValue('');
    await quantity.press('Tab');
    await expect(quantity).toHaveValue('1');
    await page.getByRole('button', { name: 'Increase quantity' }).click();
    await page.getByRole('button', { name: 'Increase quantity' }).click();
    await expect(quantity).toHaveValue('3');
    await page.getByRole('button', { name: 'Add to Cart', exact: true }).click();

    const drawer = page.getByRole('dialog', { name: 'Item added to your cart' });
    await expect(drawer).toBeVisible();
    await expect(drawer.getByText(BOOK)).toBeVisible();
    await expect(drawer.getByText('$66.00', { exact: true })).toBeVisible();
    await expect(drawer.getByRole('link', { name: 'View my cart (3)' })).toHaveAttribute('href', '/cart');
    await expect(drawer.getByRole('link', { name: 'Check out' })).toHaveAttribute('href', '/checkout');
    await expect(drawer.getByRole('status')).toHaveText('3 item(s) added to cart');
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();
    await expect(await cartBadge(page)).toHaveText('3');
    // The drawer's message went with it: nothing pops up over the page afterwards.
    await expect(page.getByText('3 item(s) added to cart')).toHaveCount(0);

    await page.reload();
    await expect(await cartBadge(page)).toHaveText('3');

    const second = await context.newPage();
    await second.goto('/cart');
    await expect(second.getByRole('cell', { name: BOOK, exact: true })).toBeVisible();
    await second
      .getByRole('button', { name: `Increase quantity of ${BOOK}` })
      .first()
      .click();
    // The other tab follows the change.
    await expect(await cartBadge(page)).toHaveText('4');
  });

  test('Continue shopping closes the drawer; the home page adds with its own message', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: /Add to Cart – \$22\.00/ }).click();
    await expect(page.getByText('Added to cart!').first()).toBeVisible();
    const drawer = page.getByRole('dialog', { name: 'Item added to your cart' });
    await drawer.getByRole('button', { name: 'Continue shopping' }).click();
    await expect(drawer).toBeHidden();
  });

  test('Buy Now from the book page lands on /checkout with the item', async ({ page }) => {
    await page.goto('/book');
    await expect(page.getByRole('heading', { name: 'Inside the Book' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Book Details' })).toBeVisible();
    await expect(page.getByText('3-9 years')).toBeVisible();
    await page.getByRole('button', { name: 'Buy Now', exact: true }).click();
    await expect(page).toHaveURL(/\/checkout$/);
    await expect(page.getByText(BOOK).first()).toBeVisible();
  });
});

test.describe('cart page', () => {
  for (const width of [1280, 375]) {
    test(`change quantities, remove and clear at ${width} px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/cart');
      await expect(page.getByRole('heading', { name: 'Your cart is empty' })).toBeVisible();
      await page.getByRole('link', { name: 'Browse Our Store' }).click();
      // The store's purchase controls answer once their script has run (a tap before it does nothing).
      await expect(page.locator('html[data-purchase-controls="live"]')).toHaveCount(1);
      await page.getByRole('button', { name: `Add to Cart: ${BOOK}` }).click();
      await expect(page.getByRole('dialog', { name: 'Item added to your cart' })).toBeVisible();
      await page.goto('/cart');
      const line = width > 768 ? page.getByRole('table') : page.getByRole('list', { name: 'Items in your cart' });
      await expect(line.getByRole('link', { name: BOOK })).toBeVisible();
      await line.getByRole('button', { name: `Increase quantity of ${BOOK}` }).click();
      await expect(line.getByRole('textbox', { name: `Quantity of ${BOOK}` })).toHaveValue('2');
      await expect(line.getByRole('button', { name: `Decrease quantity of ${BOOK}` })).toBeEnabled();
      await expect(page.getByText('Calculated at checkout')).toBeVisible();
      await expect(line.getByText('$44.00')).toBeVisible();
      await expect(page.getByRole('link', { name: 'Proceed to Checkout' })).toHaveAttribute('href', '/checkout');
      await expect(page.getByText(/Secure checkout powered by Stripe/)).toBeVisible();
      await line.getByRole('button', { name: `Remove ${BOOK}` }).click();
      await expect(page.getByText(`${BOOK} removed from cart`).first()).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Your cart is empty' })).toBeVisible();
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    });
  }

  test('Clear Cart empties it', async ({ page }) => {
    await page.goto('/store');
    await page.getByRole('button', { name: `Add to Cart: ${BOOK}` }).click();
    await expect(page.getByRole('dialog', { name: 'Item added to your cart' })).toBeVisible();
    await page.goto('/cart');
    await page.getByRole('button', { name: 'Clear Cart' }).click();
    await expect(page.getByText('Cart cleared').first()).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Your cart is empty' })).toBeVisible();
  });
});

test.describe('out of stock', () => {
  test('a product with no stock cannot be added anywhere', async ({ page, request }) => {
    const id = `sold-out-${Date.now()}`;
    await asService(request, 'POST', 'products', { id, title: `Sold Out Storybook ${id}`, price: 12, category: 'Fixtures', stock: 0 });
    await page.goto('/store');
    const card = page.getByRole('article').filter({ hasText: `Sold Out Storybook ${id}` });
    await expect(card.getByText('Out of Stock')).toBeVisible();
    await expect(card.getByRole('button', { name: /^Add to Cart/ })).toBeDisabled();
    await expect(card.getByRole('button', { name: /^Buy Now/ })).toBeDisabled();

    await page.goto(`/store/product/${id}`);
    await expect(page.getByRole('heading', { level: 1, name: `Sold Out Storybook ${id}` })).toBeVisible();
    await expect(page.getByText('Out of Stock', { exact: true }).first()).toBeVisible();
    await expect(page.getByRole('button', { name: 'Out of Stock' })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Buy Now', exact: true })).toBeDisabled();
    await expect(page.getByLabel('Quantity', { exact: true })).toBeDisabled();
    expect(await page.evaluate(() => localStorage.getItem('cart'))).toBeNull();
  });

  test('the book and its pre-rendered product page show Out of Stock, and home Coming Soon, when the database says 0', async ({ page }) => {
    await page.route('**/api/live-catalog', async (route) => {
      const response = await route.fetch();
      const { products } = (await response.json()) as { products: Array<Record<string, unknown>> };
      await route.fulfill({ response, json: { products: products.map((row) => ({ ...row, stock: 0 })) } });
    });
    await page.goto('/book');
    await expect(page.getByRole('button', { name: 'Out of Stock' })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Buy Now', exact: true })).toBeDisabled();
    // Sold out, the purchase panel takes an address to tell the shopper when the book is back.
    const backInStock = page.getByRole('form', { name: 'Email me when 10 Reasons Why Being Catholic is Awesome! is available' });
    await expect(backInStock.getByLabel('Email address')).toBeVisible();
    await expect(backInStock.getByRole('button', { name: "Email me when it's available" })).toBeEnabled();
    await page.goto('/store/product/book-10-reasons');
    await expect(page.getByText('Out of Stock', { exact: true }).first()).toBeVisible();
    await expect(page.getByRole('button', { name: 'Out of Stock' })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Buy Now', exact: true })).toBeDisabled();
    await expect(page.getByRole('button', { name: "Email me when it's available" })).toBeEnabled();
    await page.goto('/');
    await expect(page.getByRole('button', { name: 'Coming Soon' })).toBeDisabled();
    await expect(page.getByRole('link', { name: "Email me when it's available" })).toHaveAttribute('href', '/book');
  });

  test('an unknown product id shows Product Not Found', async ({ page }) => {
    await page.goto('/store/product/no-such-product');
    await expect(page.getByRole('heading', { name: 'Product Not Found' })).toBeVisible();
    await page.getByRole('link', { name: 'Back to Store' }).click();
    await expect(page).toHaveURL(/\/store$/);
  });
});

test.describe('the book and product pages from the build', () => {
  // The islands hydrate when the browser is idle, which a busy machine can put off for several seconds.
  const hydrated = { timeout: 15_000 };
  test.describe.configure({ timeout: 60_000 });

  test('/book and home draw the book before the live read answers, then take its price and stock', async ({ page }) => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/live-catalog', async (route) => {
      await held;
      const response = await route.fetch();
      const { products } = (await response.json()) as { products: Array<Record<string, unknown>> };
      await route.fulfill({ response, json: { products: products.map((row) => ({ ...row, price: 19.5 })) } });
    });
    await page.goto('/book');
    await expect(page.getByRole('heading', { level: 1, name: BOOK })).toBeVisible();
    await expect(page.getByText('$22.00')).toBeVisible();
    await expect(page.getByText('In Stock')).toBeVisible();
    await expect(page.getByText('Loading book details...')).toHaveCount(0);
    release();
    // The book's own offer (another book's card further down takes the live price too).
    await expect(page.getByText('$19.50').first()).toBeVisible(hydrated);
    await expect(page.getByRole('button', { name: 'Add to Cart', exact: true })).toBeEnabled();

    await page.goto('/');
    await expect(page.getByRole('button', { name: 'Add to Cart – $19.50' })).toBeEnabled(hydrated);
  });

  test('when the live read fails: Product Not Found with Back to Store, and Book Not Found with Browse Store, in place of the book', async ({ page }) => {
    const errors: string[] = [];
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    await page.route('**/api/live-catalog', (route) => route.fulfill({ status: 503, json: { error: 'unavailable' } }));

    await page.goto('/store/product/book-10-reasons');
    await expect(page.getByRole('heading', { level: 1, name: 'Product Not Found' })).toBeVisible(hydrated);
    await expect(page.getByRole('heading', { level: 1, name: BOOK })).toBeHidden();
    await expect(page.getByRole('button', { name: 'Add to Cart', exact: true })).toBeHidden();
    await page.getByRole('link', { name: 'Back to Store' }).click();
    await expect(page).toHaveURL(/\/store$/);

    await page.goto('/book');
    await expect(page.getByRole('heading', { level: 1, name: 'Book Not Found' })).toBeVisible(hydrated);
    await expect(page.getByText("Sorry, we couldn't find the book you're looking for.")).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: BOOK })).toBeHidden();
    await expect(page.getByRole('heading', { name: 'Inside the Book' })).toBeHidden();
    await page.getByRole('link', { name: 'Browse Store' }).click();
    await expect(page).toHaveURL(/\/store$/);
    expect(errors.some((text) => text.includes('Failed to fetch product details'))).toBe(true);
  });
});
