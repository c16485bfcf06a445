/**
 * The rules reviews share: the name a review is shown with by default, the form's limits and messages, the
 * structured data counting exactly the reviews a page shows, and the build's read of published reviews.
 */
import { describe, expect, it } from 'vitest';
import { readBooks } from '@/features/catalog/book-files';
import { REVIEW_LIMITS, REVIEW_MESSAGES, reviewFields, reviewLength, shortDisplayName } from '@/features/reviews/contract';
import { readPublishedReviews, SITE_BUILD_HEADER } from '@/features/reviews/published';
import type { BookReview } from '@/lib/reviews';
import { bookProductJsonLd } from '@/lib/structured-data';

describe('the name a review is shown with', () => {
  it.each([
    ['Mary Anne Smith', 'Mary S.'],
    ['  ann   lee ', 'ann L.'],
    ['Fr. Michael', 'Fr. M.'],
    ['Cher', 'Cher'],
    // A whole character, never half of a surrogate pair (which no email or database takes as text).
    ['Zoë 😀', 'Zoë 😀.'],
    ['Li 𠀋ming', 'Li 𠀋.'],
    ['Guest Customer', ''],
    ['', ''],
    [null, ''],
  ])('%s → %s', (name, shown) => expect(shortDisplayName(name)).toBe(shown));
});

describe('the review form’s fields', () => {
  const good = { rating: '5', title: ' A joy ', body: 'Lovely.', displayName: 'Mary S.', consent: true };
  it('takes a whole review, trimmed, the stars as a number', () => {
    expect(reviewFields.parse(good)).toEqual({ rating: 5, title: 'A joy', body: 'Lovely.', displayName: 'Mary S.', consent: true });
  });
  it('says what is wrong with each field', () => {
    const result = reviewFields.safeParse({ rating: null, title: ' ', body: 'x'.repeat(2001), displayName: '', consent: false });
    const messages = Object.fromEntries(result.error!.issues.map((i) => [i.path[0], i.message]));
    expect(messages).toEqual({
      rating: REVIEW_MESSAGES.rating,
      title: REVIEW_MESSAGES.title,
      body: REVIEW_MESSAGES.bodyLong,
      displayName: REVIEW_MESSAGES.name,
      consent: REVIEW_MESSAGES.consent,
    });
  });
  it('counts characters as the database does (an emoji is one), so a title the count allows is never refused', () => {
    expect(reviewLength('  A joy 😀  ')).toBe(7);
    const emoji = '😀'.repeat(REVIEW_LIMITS.titleMax);
    expect(reviewFields.parse({ ...good, title: emoji }).title).toBe(emoji);
    expect(reviewFields.safeParse({ ...good, title: `${emoji}!` }).error?.issues.map((i) => i.message)).toEqual([REVIEW_MESSAGES.titleLong]);
  });
  it('keeps a review’s line breaks and tabs, and refuses other control characters (a NUL the database cannot store)', () => {
    expect(reviewFields.parse({ ...good, body: 'Line one\n\tLine two\r\nEnd' }).body).toBe('Line one\n\tLine two\r\nEnd');
    for (const body of ['a\u0000b', 'a\u0007b', 'a\u001bb']) {
      expect(reviewFields.safeParse({ ...good, body }).error?.issues.map((i) => i.message)).toEqual([REVIEW_MESSAGES.bodyCharacters]);
    }
  });
});

describe('structured data', () => {
  const book = readBooks().find((b) => b.featured)!;
  const site = new URL('https://shop.example');
  const buyer: BookReview = { author: 'Mary S.', rating: 4, title: 'A joy', body: 'Lovely.', date: '2026-11-27T20:00:00Z', verifiedBuyer: true };
  it('marks up exactly the reviews the page shows, with a buyer review’s title and its day in Sydney', () => {
    const shown = [buyer, ...book.reviews];
    const data = bookProductJsonLd({ site, book, image: '/cover.png', path: '/book', offer: { availability: 'in_stock' }, shownReviews: shown }) as unknown as {
      aggregateRating: { reviewCount: number; ratingValue: number };
      review: Array<Record<string, unknown>>;
    };
    expect(data.aggregateRating.reviewCount).toBe(shown.length);
    expect(data.review.map((r) => r.reviewBody)).toEqual(shown.map((r) => r.body));
    expect(data.review[0]).toMatchObject({ name: 'A joy', datePublished: '2026-11-28', author: { '@type': 'Person', name: 'Mary S.' } });
    expect(data.review[1]).not.toHaveProperty('datePublished');
  });
  it('marks up none where the page shows none', () => {
    const data = bookProductJsonLd({ site, book, image: '/cover.png', path: '/book', offer: { availability: 'in_stock' } }) as unknown as Record<string, unknown>;
    expect(data).not.toHaveProperty('review');
    expect(data).not.toHaveProperty('aggregateRating');
  });
});

describe('the build’s read of published reviews', () => {
  const row = { id: '1', product_id: 'book-10-reasons', rating: 5, title: 'A joy', body: 'Lovely.', display_name: 'Mary S.', published_at: '2026-11-27T20:00:00Z', reply: 'Thank you!' };
  it('reads with the hosted anon key, or the local origin; none without either', async () => {
    const seen: Array<{ url: string; key: string | null; build: string | null }> = [];
    const fetchImpl = (async (url: URL, init: RequestInit) => {
      const headers = new Headers(init.headers);
      seen.push({ url: url.toString(), key: headers.get('apikey'), build: headers.get(SITE_BUILD_HEADER) });
      return Response.json([row]);
    }) as unknown as typeof fetch;
    const hosted = await readPublishedReviews({ PUBLIC_SUPABASE_URL: 'https://db.example', PUBLIC_SUPABASE_ANON_KEY: 'anon', LOCAL_SITE_BUILD: 'build-1' }, fetchImpl);
    expect(hosted.get('book-10-reasons')).toEqual([{ author: 'Mary S.', rating: 5, title: 'A joy', body: 'Lovely.', date: row.published_at, verifiedBuyer: true, reply: 'Thank you!' }]);
    // Only the local server is told which build read (it lets a press join a build that has not read yet).
    expect(seen[0]).toMatchObject({ url: expect.stringMatching(/^https:\/\/db\.example\/rest\/v1\/reviews\?select=/), key: 'anon', build: null });
    await readPublishedReviews({ LOCAL_REVIEWS_ORIGIN: 'http://localhost:4321', LOCAL_SITE_BUILD: 'build-2' }, fetchImpl);
    expect(seen[1]).toMatchObject({ url: expect.stringMatching(/^http:\/\/localhost:4321\/rest\/v1\/reviews/), build: 'build-2' });
    expect((await readPublishedReviews({}, fetchImpl)).size).toBe(0);
    expect(seen).toHaveLength(2);
  });
  it('fails the build when the read fails, rather than drop the reviews', async () => {
    const failing = (async () => new Response('no', { status: 500 })) as unknown as typeof fetch;
    await expect(readPublishedReviews({ PUBLIC_SUPABASE_URL: 'https://db.example', PUBLIC_SUPABASE_ANON_KEY: 'anon' }, failing)).rejects.toThrow(/HTTP 500/);
  });
});
