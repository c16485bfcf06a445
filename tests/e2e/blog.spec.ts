import { expect, test, type Page } from '@playwright/test';

const FAITH = {
  id: 'why-faith-based-books-matter',
  title: 'Why Faith-Based Books Matter',
  category: 'Faith Formation',
  date: '15 April 2025',
  excerpt: 'The stories we read to our children shape how they see God, themselves and the world.',
  imageAlt: 'An open book with a small cross rising from its pages, surrounded by gold stars on a soft blue background',
  bodyHeading: 'Stories shape what children love',
};
const PARENTING = {
  id: 'teaching-faith-to-little-hearts',
  title: 'Teaching Faith to Little Hearts',
  category: 'Parenting',
  date: '5 April 2025',
  excerpt: 'Practical, gentle ideas for sharing the Catholic faith with children aged two to eight',
  imageAlt: 'A parent and small child sitting together reading a book beside a window, with a crescent moon and stars outside',
  bodyHeading: 'Start with small, steady prayer routines',
};
const POSTS = [FAITH, PARENTING];

/** The card of one post in a list, found by its title. */
const postCard = (page: Page, title: string) => page.getByRole('article').filter({ has: page.getByRole('heading', { name: title }) });

test.describe('blog list', () => {
  test('lists both posts newest first with image, category, date, title, excerpt and Read More', async ({ page }) => {
    await page.goto('/blog');
    await expect(page.getByRole('heading', { level: 1, name: 'Our Blog' })).toBeVisible();
    const articles = page.getByRole('region', { name: 'Articles' }).getByRole('article');
    await expect(articles).toHaveCount(2);
    await expect(articles.first().getByRole('heading')).toHaveText(FAITH.title);
    await expect(articles.last().getByRole('heading')).toHaveText(PARENTING.title);

    for (const post of POSTS) {
      const card = postCard(page, post.title);
      await expect(card.getByRole('img', { name: post.imageAlt })).toBeVisible();
      await expect(card.getByText(post.category, { exact: true })).toBeVisible();
      await expect(card.getByText(post.date, { exact: true })).toBeVisible();
      await expect(card.getByText(post.excerpt)).toBeVisible();
      await expect(card.getByRole('link', { name: post.title, exact: true })).toHaveAttribute('href', `/blog/${post.id}`);
      await expect(card.getByRole('link', { name: /^Read More/ })).toHaveAttribute('href', `/blog/${post.id}`);
    }
  });

  test('Read More opens the post', async ({ page }) => {
    await page.goto('/blog');
    await postCard(page, FAITH.title)
      .getByRole('link', { name: /^Read More/ })
      .click();
    await expect(page).toHaveURL(new RegExp(`/blog/${FAITH.id}$`));
    await expect(page.getByRole('heading', { level: 1, name: FAITH.title })).toBeVisible();
  });

  test('has a newsletter box with the bot-check note and the form mount point', async ({ page }) => {
    await page.goto('/blog');
    const box = page.getByRole('region', { name: 'Subscribe to Our Newsletter' });
    await expect(box).toBeVisible();
    await expect(box.getByText('This site is protected by Cloudflare Turnstile.')).toBeVisible();
    await expect(box.locator('#newsletter-form')).toHaveAttribute('data-island', 'newsletter');
  });
});

test.describe('blog post', () => {
  for (const post of POSTS) {
    test(`${post.id} shows back link, category, date, title, image, body, share and follow links and one more article`, async ({ page }) => {
      await page.goto(`/blog/${post.id}`);
      const article = page.getByRole('article').filter({ has: page.getByRole('heading', { level: 1 }) });

      await expect(article.getByRole('link', { name: 'Back to Blog' })).toHaveAttribute('href', '/blog');
      await expect(article.getByText(post.category, { exact: true })).toBeVisible();
      await expect(article.locator('time')).toHaveText(post.date);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(post.title);
      await expect(article.getByRole('img', { name: post.imageAlt })).toBeVisible();
      await expect(article.getByRole('heading', { level: 2, name: post.bodyHeading })).toBeVisible();
      await expect(article.getByRole('link', { name: 'our counting book' })).toHaveAttribute('href', '/book');

      const canonical = await page.locator('link[rel="canonical"]').getAttribute('href');
      expect(canonical).toMatch(new RegExp(`^https?://[^/]+/blog/${post.id}$`));
      const encoded = encodeURIComponent(canonical ?? '');

      const share = page.getByRole('region', { name: 'Share this article' });
      const facebookShare = share.getByRole('link', { name: 'Share on Facebook (opens in a new tab)' });
      await expect(facebookShare).toHaveAttribute('href', `https://www.facebook.com/sharer/sharer.php?u=${encoded}`);
      const xShare = share.getByRole('link', { name: 'Share on X (opens in a new tab)' });
      await expect(xShare).toHaveAttribute('href', `https://x.com/intent/post?url=${encoded}&text=${encodeURIComponent(post.title)}`);
      for (const link of [facebookShare, xShare]) {
        await expect(link).toHaveAttribute('target', '_blank');
        await expect(link).toHaveAttribute('rel', /noopener/);
      }

      const follow = page.getByRole('region', { name: 'Follow Us' });
      await expect(follow.getByRole('link', { name: 'Instagram (opens in a new tab)' })).toHaveAttribute('href', /^https:\/\/www\.instagram\.com\//);
      await expect(follow.getByRole('link', { name: 'Facebook (opens in a new tab)' })).toHaveAttribute('href', /^https:\/\/www\.facebook\.com\/(?!sharer)/);

      const more = page.getByRole('region', { name: 'More articles' });
      await expect(more.getByRole('article')).toHaveCount(1);
      const other = POSTS.find((p) => p.id !== post.id)!;
      await expect(more.getByRole('link', { name: other.title, exact: true })).toHaveAttribute('href', `/blog/${other.id}`);
    });
  }

  test('carries article SEO: description, og:type, its own social card, section and BlogPosting + BreadcrumbList JSON-LD', async ({ page }) => {
    await page.goto(`/blog/${FAITH.id}`);
    await expect(page).toHaveTitle(new RegExp(`^${FAITH.title}`));
    await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', new RegExp(`^${FAITH.excerpt}`));
    await expect(page.locator('meta[property="og:type"]')).toHaveAttribute('content', 'article');
    await expect(page.locator('meta[property="og:image"]')).toHaveAttribute('content', new RegExp(`/social/blog/${FAITH.id}\\.png$`));
    await expect(page.locator('meta[property="article:section"]')).toHaveAttribute('content', FAITH.category);
    const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
    const data = blocks.map((text) => JSON.parse(text) as { '@type': string; headline?: string; itemListElement?: unknown[] });
    expect(data.map((d) => d['@type']).sort()).toEqual(['BlogPosting', 'BreadcrumbList']);
    expect(data.find((d) => d['@type'] === 'BlogPosting')?.headline).toBe(FAITH.title);
    expect(data.find((d) => d['@type'] === 'BreadcrumbList')?.itemListElement).toHaveLength(3);
  });

  test('an unknown post answers 404 with Blog Post Not Found and a way back to the blog', async ({ page }) => {
    const response = await page.goto('/blog/unknown-post');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1, name: 'Blog Post Not Found' })).toBeVisible();
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
    await page.getByRole('link', { name: 'Back to Blog' }).click();
    await expect(page).toHaveURL(/\/blog$/);
  });
});

test.describe('blog feed', () => {
  test('the RSS feed lists both posts with title, link, date, summary and category', async ({ request }) => {
    const response = await request.get('/rss.xml');
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toMatch(/xml/);
    const xml = await response.text();
    const items = [...xml.matchAll(/<item>([\s\S]*?)<\/item>/g)].map((m) => m[1]!);
    expect(items).toHaveLength(POSTS.length);
    POSTS.forEach((post, i) => {
      const item = items[i]!;
      expect(item).toContain(`<title>${post.title}</title>`);
      expect(item).toMatch(new RegExp(`<link>https?://[^<]+/blog/${post.id}</link>`));
      expect(new Date(item.match(/<pubDate>([^<]+)<\/pubDate>/)![1]!).toISOString().slice(0, 10)).toBe(new Date(`${post.date} UTC`).toISOString().slice(0, 10));
      expect(item).toContain(`<description>${post.excerpt}`);
      expect(item).toContain(`<category>${post.category}</category>`);
    });
  });

  test('/blog names the feed in its head and links to it', async ({ page }) => {
    await page.goto('/blog');
    await expect(page.locator('link[rel="alternate"][type="application/rss+xml"]')).toHaveAttribute('href', /\/rss\.xml$/);
    await expect(page.getByRole('link', { name: 'Follow the blog by RSS' })).toHaveAttribute('href', '/rss.xml');
  });
});
