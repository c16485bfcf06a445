/**
 * The Google Merchant Center product feed, written at build: every book with the stock the build read.
 * Merchant Center fetches it on a schedule (see the README's deploy steps).
 */
import type { APIRoute } from 'astro';
import { bookCoverUrl, getBooks } from '@/features/catalog/books';
import { merchantFeedXml } from '@/features/catalog/merchant-feed';
import { stockAtBuild } from '@/features/catalog/stock-at-build';

export const GET: APIRoute = async ({ site }) => {
  const books = (await getBooks()).map((book) => ({ ...book.data, body: book.body, image: bookCoverUrl(book) }));
  const xml = merchantFeedXml({ site: site!, books, stock: await stockAtBuild() });
  return new Response(xml, { headers: { 'Content-Type': 'application/xml; charset=utf-8' } });
};
