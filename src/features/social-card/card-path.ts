import { SITE } from '../../config/site';

/** Where a page's social card is published: one 1200×630 PNG per indexable page, named after the page's path. */
export const SOCIAL_CARD = { width: 1200, height: 630, folder: '/social' } as const;

/** `/` → `/social/index.png`, `/blog/a-post` → `/social/blog/a-post.png`. */
export function socialCardPath(pagePath: string): string {
  const trimmed = pagePath.replace(/\/+$/, '');
  return `${SOCIAL_CARD.folder}${trimmed === '' ? '/index' : trimmed}.png`;
}

/** The cover fits every card but a blog post's, which is about the post rather than the book. */
export const cardShowsCover = (ogType: string) => ogType !== 'article';

/** The book whose cover a page's card shows: a product page's own book, otherwise the featured one. */
export function cardBook<Book extends { id: string; featured: boolean }>(pagePath: string, books: readonly Book[]): Book | undefined {
  const id = /^\/store\/product\/([^/]+)$/.exec(pagePath)?.[1];
  return books.find((book) => book.id === id) ?? books.find((book) => book.featured);
}

/** The card's text alternative, for `og:image:alt`; `coverTitle` names the featured book whose cover it shows. */
export function socialCardAlt(title: string, ogType: string, coverTitle: string): string {
  return `${title}: card from ${SITE.name}${cardShowsCover(ogType) ? ` with the cover of ${coverTitle}` : ''}`;
}
