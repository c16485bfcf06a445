/**
 * The published reviews, as the build finds them, for the book and product pages. Anyone may read a published
 * review (row-level security shows the anon key those rows and their public columns only), so the build needs
 * no secret: a Netlify build reads with PUBLIC_SUPABASE_URL and PUBLIC_SUPABASE_ANON_KEY; the local server's
 * rebuild passes its own origin as LOCAL_REVIEWS_ORIGIN (the embedded backend's well-known anon key) and the
 * build's name as LOCAL_SITE_BUILD, which the read carries so the server knows that build has read them. A build
 * with neither has none. A read that fails fails the build: a deploy must not quietly drop the reviews it had.
 */
import { EMBEDDED_ANON_KEY } from '@/lib/supabase/embedded-keys';
import type { BookReview } from '@/lib/reviews';

/** At most this long for the one read, so a slow database never holds a deploy up for long. */
const READ_TIMEOUT_MS = 15_000;
const COLUMNS = 'id,product_id,rating,title,body,display_name,published_at,reply';

export type PublishedReviews = ReadonlyMap<string, readonly BookReview[]>;

interface Row {
  id: string;
  product_id: string;
  rating: number;
  title: string;
  body: string;
  display_name: string;
  published_at: string;
  reply: string | null;
}

/** The header a local rebuild's read carries: the build's name. */
export const SITE_BUILD_HEADER = 'x-local-site-build';

/** Where the build reads the published reviews: the project's database, else the local server's. */
export function reviewsSource(env: Record<string, string | undefined>): { url: string; key: string; local: boolean } | undefined {
  const url = env.PUBLIC_SUPABASE_URL?.trim();
  const key = env.PUBLIC_SUPABASE_ANON_KEY?.trim();
  if (url && key) return { url, key, local: false };
  const local = env.LOCAL_REVIEWS_ORIGIN?.trim();
  return local ? { url: local, key: EMBEDDED_ANON_KEY, local: true } : undefined;
}

const isRow = (row: Partial<Row> | null): row is Row =>
  typeof row?.product_id === 'string' && Number.isInteger(row.rating) && typeof row.body === 'string' && typeof row.display_name === 'string' && typeof row.published_at === 'string';

/** Every book's published reviews, newest first, as the pages draw them. */
export async function readPublishedReviews(env: Record<string, string | undefined>, fetchImpl: typeof fetch = fetch): Promise<PublishedReviews> {
  const from = reviewsSource(env);
  if (!from) return new Map();
  const build = from.local && env.LOCAL_SITE_BUILD?.trim();
  const response = await fetchImpl(new URL(`/rest/v1/reviews?select=${COLUMNS}&order=published_at.desc,id.asc`, from.url), {
    headers: { apikey: from.key, authorization: `Bearer ${from.key}`, ...(build && { [SITE_BUILD_HEADER]: build }) },
    signal: AbortSignal.timeout(READ_TIMEOUT_MS),
  });
  if (!response.ok) throw new Error(`The published reviews could not be read at build: HTTP ${response.status} ${await response.text()}`);
  const rows = (await response.json()) as unknown;
  if (!Array.isArray(rows)) throw new Error('The published reviews could not be read at build: the answer is not a list.');
  const byBook = new Map<string, BookReview[]>();
  for (const row of rows as (Partial<Row> | null)[]) {
    if (!isRow(row)) continue;
    const reviews = byBook.get(row.product_id) ?? [];
    reviews.push({ author: row.display_name, rating: row.rating, title: row.title, body: row.body, date: row.published_at, verifiedBuyer: true, ...(row.reply && { reply: row.reply }) });
    byBook.set(row.product_id, reviews);
  }
  return byBook;
}

/** The build's one read, shared by every page. */
let once: Promise<PublishedReviews> | undefined;

/** What a book's page shows: its buyers' published reviews, newest first, then the reviews in its file. */
export async function reviewsShownFor(bookId: string, fileReviews: readonly BookReview[]): Promise<readonly BookReview[]> {
  once ??= readPublishedReviews(process.env);
  return [...((await once).get(bookId) ?? []), ...fileReviews];
}
