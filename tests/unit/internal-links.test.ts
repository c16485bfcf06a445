/** The internal-link check over posts: what counts as a link, which paths the site has, and how a broken one reads. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { brokenLinks, internalLinks, linkTarget, sitePaths } from '../../src/features/content/internal-links';

const root = process.cwd();

describe('internal links in MDX', () => {
  it('finds inline, reference, image and JSX links to this site with their lines, and nothing in code or elsewhere', () => {
    const source = [
      '---',
      'image: "/images/blog/a.svg"',
      '---',
      'Read [the book](/book "Our book") or [a post](</blog/why-faith-based-books-matter>).',
      '![A cover](/images/book/cover.svg)',
      '[ref]: /store',
      '<a href="/contact">Contact</a> and <Link href={"/about"} />',
      'Outside: [Vatican](https://www.vatican.va), [protocol-relative](//example.com), [mail](mailto:a@b.c), [anchor](#top).',
      '`[code](/not-a-link)`',
      '```md',
      '[fenced](/not-a-link-either)',
      '```',
    ].join('\n');
    expect(internalLinks(source)).toEqual([
      { href: '/book', line: 4 },
      { href: '/blog/why-faith-based-books-matter', line: 4 },
      { href: '/images/book/cover.svg', line: 5 },
      { href: '/store', line: 6 },
      { href: '/contact', line: 7 },
      { href: '/about', line: 7 },
    ]);
  });

  it('asks the site for the path alone: no query, fragment or trailing slash', () => {
    expect(linkTarget('/book/?ref=post#buy')).toBe('/book');
    expect(linkTarget('/')).toBe('/');
    expect(linkTarget('/blog/caf%C3%A9')).toBe('/blog/café');
  });
});

describe('the paths the site has', () => {
  const paths = sitePaths(root);

  it('has every page, landing page, legal page, post, product page and public file', () => {
    for (const path of [
      '/',
      '/book',
      '/store',
      '/blog',
      '/contact',
      '/about',
      '/cart',
      '/robots.txt',
      '/catholic-books-sydney',
      '/baptism-gifts',
      '/privacy-policy',
      '/blog/why-faith-based-books-matter',
      '/store/product/book-10-reasons',
    ]) {
      expect(paths, path).toContain(path);
    }
    expect([...paths].some((path) => path.startsWith('/images/'))).toBe(true);
    expect(paths).not.toContain('/[landing]');
    expect(paths).not.toContain('/blog/[id]');
  });

  it('every post and legal page links only to paths that exist', () => {
    for (const folder of ['content/blog', 'content/legal']) {
      for (const file of readdirSync(join(root, folder))) {
        expect(brokenLinks(`${folder}/${file}`, readFileSync(join(root, folder, file), 'utf8'), paths)).toEqual([]);
      }
    }
  });

  it('a broken link names the file, the line, the link and the nearest path that exists', () => {
    const [broken, ...rest] = brokenLinks('content/blog/post.mdx', 'Intro\n\nSee [our counting book](/boook) and [the store](/store).', paths);
    expect(rest).toEqual([]);
    expect(broken?.message).toBe('content/blog/post.mdx:3: the link /boook goes to no page of the site: expected a path of this site, such as /book');
    const [far] = brokenLinks('content/blog/post.mdx', '[x](/a-page-that-was-never-written-at-all)', paths);
    expect(far?.message).toMatch(/goes to no page of the site: expected a page, landing page, post \(\/blog\/<id>\), product \(\/store\/product\/<id>\) or a file in public\/$/);
  });
});
