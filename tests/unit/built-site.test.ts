/**
 * Fast quality gate on the built site (dist/, which `npm test` builds first): the structured data of
 * every page and the size budget of every page. The same checks as `npm run audit` (tests/audit/).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DISALLOWED_FOR_CRAWLERS, isKeptOutOfSearch } from '@/config/search';
import { builtPages, DIST_DIR } from '../audit/built-site';
import { inlineScriptsWaitingForStylesheet } from '../audit/inline-scripts';
import { expectationFor, jsonLdBlocks, validateJsonLd } from '../audit/json-ld';
import { landingSlugs } from '../audit/routes';
import { measurePage } from '../audit/page-weight';
import { checkBudget, checkPageBudgets } from '../audit/size-budget';
import { readBooks } from '@/features/catalog/book-files';

const pages = builtPages(DIST_DIR);

describe('structured data (JSON-LD) on every built page', () => {
  it('the build has every landing page of content/landing', () => {
    const built = new Set(pages.map((page) => page.path));
    expect(landingSlugs().filter((slug) => !built.has(`/${slug}`))).toEqual([]);
  });

  it.each(pages.map((page) => [page.path, page] as const))('%s', (path, page) => {
    const result = validateJsonLd(path, page.html, expectationFor(page));
    expect(result.problems).toEqual([]);
  });
});

describe('reviews are marked up only on the pages that show them', () => {
  const markedUp = (html: string) => jsonLdBlocks(html).some((block) => /"@type":\s*"(Review|AggregateRating)"/.test(block));
  const withReviews = readBooks()
    .filter((book) => book.reviews.length > 0)
    .flatMap((book) => [`/store/product/${book.id}`, ...(book.featured ? ['/book'] : [])])
    .sort();

  it('/book and the product pages of books with reviews show them and mark them up; no other page does', () => {
    expect(withReviews.length).toBeGreaterThan(0);
    expect(pages.filter((page) => markedUp(page.html)).map((page) => page.path)).toEqual(withReviews);
    expect(pages.filter((page) => page.html.includes('data-book-reviews')).map((page) => page.path)).toEqual(withReviews);
  });

  it('no landing page marks reviews up', () => {
    expect(pages.filter((page) => page.kind === 'landing' && markedUp(page.html)).map((page) => page.path)).toEqual([]);
  });
});

describe('a book before its release date is offered as a pre-order in its structured data', () => {
  const offerOf = (path: string) => {
    const page = pages.find((p) => p.path === path);
    const product =
      page &&
      jsonLdBlocks(page.html)
        .map((block) => JSON.parse(block) as { '@type'?: string; offers?: Record<string, unknown> })
        .find((block) => block['@type'] === 'Product');
    return product?.offers;
  };
  const today = new Date().toISOString().slice(0, 10);
  const books = readBooks().map((book) => ({ id: book.id, releaseDate: book.releaseDate?.toISOString().slice(0, 10) }));

  it('the catalog holds a title on pre-order, and its product page says PreOrder from its release date', () => {
    const ahead = books.filter((book) => book.releaseDate && book.releaseDate > today);
    expect(ahead.length).toBeGreaterThan(0);
    for (const book of ahead) expect(offerOf(`/store/product/${book.id}`), book.id).toMatchObject({ availability: 'https://schema.org/PreOrder', availabilityStarts: book.releaseDate });
  });

  it('a book out already is in stock, with no start date', () => {
    for (const book of books.filter((b) => !b.releaseDate || b.releaseDate <= today)) {
      const offer = offerOf(`/store/product/${book.id}`);
      expect(offer?.availability, book.id).toBe('https://schema.org/InStock');
      expect(offer?.availabilityStarts, book.id).toBeUndefined();
    }
  });
});

describe('no inline script stops the parser before the end of a page (one layout, as a page without script has)', () => {
  it("no page links a stylesheet file: each carries its own, so Astro's island runtime before the first island waits for nothing", () => {
    expect(pages.filter((page) => /<link\b[^>]*\brel="?stylesheet/i.test(page.html)).map((page) => page.path)).toEqual([]);
  });

  it.each(pages.map((page) => [page.path, page] as const))('%s', (_path, page) => {
    expect(inlineScriptsWaitingForStylesheet(page.html)).toEqual([]);
  });

  it('finds an inline script with content after it on a page with a stylesheet file, and passes every other', () => {
    const page = (body: string, head = '<link rel="stylesheet" href="/a.css">') => `<!doctype html><html><head>${head}<script>a()</script></head><body>${body}</body></html>`;
    const atEnd = '<p>x</p><script type="module" src="/a.js"></script><script>b()</script>\n<script>c()</script>';
    expect(inlineScriptsWaitingForStylesheet(page(atEnd))).toEqual([]);
    expect(inlineScriptsWaitingForStylesheet(page('<script type="application/ld+json">{}</script><p>x</p>'))).toEqual([]);
    expect(inlineScriptsWaitingForStylesheet(page('<p>x</p><script>b()</script><astro-island></astro-island>'))).toEqual(['b()']);
    expect(inlineScriptsWaitingForStylesheet(page('<p>x</p><script>b()</script><astro-island></astro-island>', '<style>a{}</style>'))).toEqual([]);
  });
});

describe("the pages' scripts in few files (src/lib/hydration/page-chunk.ts)", () => {
  // Each file costs a request with the site's headers (about 1.4 KB), and a file imported by another is found
  // only once that one has arrived: the product page once fetched 28 of them.
  it('a page with no island at load starts at most three script files (the layout with the one chunk, its offers, the store grid)', () => {
    const counts = pages
      .filter((page) => !/<astro-island\b[^>]*\bclient="load"/.test(page.html))
      .map((page) => [page.path, measurePage(DIST_DIR, page).js.files.length] as const)
      .filter(([, count]) => count > 3);
    expect(counts).toEqual([]);
  });

  it('the content pages and the shop pages share the one chunk, the layout’s script', () => {
    const chunk = (path: string) => measurePage(DIST_DIR, pages.find((page) => page.path === path)!).js.files.filter((file) => /\/BaseLayout\.astro_[\w.-]+\.js$/.test(file));
    expect(chunk('/about')).toHaveLength(1);
    for (const path of ['/', '/book', '/store', '/store/product/book-10-reasons']) expect(chunk(path)).toEqual(chunk('/about'));
  });
});

describe('size budgets (tests/audit/budgets.ts)', () => {
  it.each(checkPageBudgets(DIST_DIR, pages).map((result) => [result.weight.path, result] as const))('%s', (_path, result) => {
    expect(result.over).toEqual([]);
  });

  it('an overrun is reported with the figure and the budget', () => {
    const size = (kib: number) => ({ raw: kib * 1024, gzip: (kib / 4) * 1024, brotli: (kib / 5) * 1024, files: [] });
    const weight = { path: '/x', kind: 'home' as const, html: size(10), css: size(10), js: size(200), onUseJs: size(10), lazyJs: size(10) };
    const budget = { raw: 100, gzip: 100, brotli: 30 };
    expect(checkBudget(weight, { html: budget, css: budget, js: budget, onUseJs: budget, lazyJs: budget })).toEqual(['JS raw 200.0 KiB > 100 KiB', 'JS brotli 40.0 KiB > 30 KiB']);
  });
});

describe('the JSON-LD validator catches what it should', () => {
  const ld = (value: unknown) => `<script type="application/ld+json">${typeof value === 'string' ? value : JSON.stringify(value)}</script>`;
  const problems = (html: string, types: string[] = []) => validateJsonLd('/x', html, { types }).problems;
  const product = {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: 'Book',
    image: 'https://example.com/b.png',
    sku: 'b',
    offers: { '@type': 'Offer', price: '22.00', priceCurrency: 'AUD', availability: 'https://schema.org/InStock' },
  };

  it('accepts a complete Product', () => expect(problems(ld(product), ['Product'])).toEqual([]));
  it('a block that does not parse', () => expect(problems(ld('{"@type": "Product",}'))[0]).toMatch(/does not parse/));
  it('an expected type that is missing', () => expect(problems(ld(product), ['Product', 'FAQPage'])).toEqual(['expected a top-level FAQPage, found none']));
  it('an offer without price, currency or availability', () => {
    const result = validateJsonLd('/x', ld({ ...product, offers: { '@type': 'Offer' } }));
    expect(result.problems).toEqual(['Product.offers: Offer requires price', 'Product.offers: Offer requires priceCurrency']);
    expect(result.warnings).toContain('Product.offers: Offer should have availability');
  });
  it('a pre-order without the day it starts, or that day on an offer in stock', () => {
    const preorder = { ...product.offers, availability: 'https://schema.org/PreOrder' };
    expect(problems(ld({ ...product, offers: preorder }))).toEqual(['Product.offers: a PreOrder offer needs availabilityStarts, an ISO 8601 date']);
    expect(problems(ld({ ...product, offers: { ...preorder, availabilityStarts: '2027-06-01' } }))).toEqual([]);
    expect(problems(ld({ ...product, offers: { ...product.offers, availabilityStarts: '2027-06-01' } }))).toEqual(['Product.offers: availabilityStarts on an offer that is not a PreOrder']);
  });
  it('breadcrumbs out of order or without item', () => {
    const list = { '@context': 'https://schema.org', '@type': 'BreadcrumbList', itemListElement: [{ '@type': 'ListItem', position: 2, name: 'Home' }] };
    expect(problems(ld(list))).toEqual(expect.arrayContaining([expect.stringMatching(/position/), expect.stringMatching(/item missing/)]));
  });
  it('a FAQ question without an answer', () => {
    const faq = { '@context': 'https://schema.org', '@type': 'FAQPage', mainEntity: [{ '@type': 'Question', name: 'Why?' }] };
    expect(problems(ld(faq))[0]).toMatch(/acceptedAnswer/);
  });
  it('shipping details without a rate, and a finite return window without its days', () => {
    const offer = {
      ...product.offers,
      shippingDetails: { '@type': 'OfferShippingDetails', shippingDestination: { '@type': 'DefinedRegion', addressCountry: 'AU' }, deliveryTime: { '@type': 'ShippingDeliveryTime' } },
      hasMerchantReturnPolicy: { '@type': 'MerchantReturnPolicy', applicableCountry: 'AU', returnPolicyCategory: 'https://schema.org/MerchantReturnFiniteReturnWindow' },
    };
    expect(problems(ld({ ...product, offers: offer }))).toEqual([
      'OfferShippingDetails: OfferShippingDetails requires shippingRate',
      'MerchantReturnPolicy: a finite return window requires merchantReturnDays',
    ]);
  });
  it('a blog post without image or author fails; one without dateModified only warns', () => {
    const post = { '@context': 'https://schema.org', '@type': 'BlogPosting', headline: 'Hi', datePublished: '2025-04-15' };
    const result = validateJsonLd('/x', ld(post));
    expect(result.problems).toEqual(['BlogPosting: BlogPosting requires image', 'BlogPosting: BlogPosting requires author']);
    expect(result.warnings).toContain('BlogPosting: BlogPosting should have dateModified');
  });
  it("the page's Organization should have logo and social profiles; a nested seller need not", () => {
    const organization = { '@context': 'https://schema.org', '@type': 'Organization', name: 'Shop', url: 'https://example.com' };
    expect(validateJsonLd('/x', ld(organization)).warnings).toEqual(expect.arrayContaining(['Organization: Organization should have logo', 'Organization: Organization should have sameAs']));
    const sold = { ...product, offers: { ...product.offers, seller: { '@type': 'Organization', name: 'Shop' } } };
    expect(validateJsonLd('/x', ld(sold)).warnings.filter((w) => w.includes('Organization'))).toEqual([]);
  });
  it('a priceSpecification as Google reads it: the one selling price, a strikethrough price or a unit price, each priced in the offer’s currency; no prices by quantity', () => {
    const offerWith = (...priceSpecification: object[]) => ld({ ...product, offers: { ...product.offers, priceSpecification } });
    const spec = (fields: object = {}) => ({ '@type': 'UnitPriceSpecification', price: '22.00', priceCurrency: 'AUD', ...fields });
    const strikethrough = spec({ price: '25.00', priceType: 'https://schema.org/StrikethroughPrice' });
    const perKilogram = spec({ price: '40.00', referenceQuantity: { '@type': 'QuantitativeValue', value: 1, unitCode: 'KGM' } });
    expect(problems(offerWith(spec(), strikethrough, perKilogram))).toEqual([]);
    expect(problems(offerWith(spec({ price: '18.00', eligibleQuantity: { '@type': 'QuantitativeValue', minValue: 25 } })))).toEqual([
      'Product.offers.priceSpecification[0]: a price by quantity (eligibleQuantity) is not one Google reads; an Offer has one price, the page shows the others',
      "Product.offers.priceSpecification[0]: price 18.00 is not the offer's 22.00",
    ]);
    expect(problems(offerWith({ '@type': 'UnitPriceSpecification', priceCurrency: 'USD', priceType: 'SRP' }, spec(), spec()))).toEqual([
      'Product.offers.priceSpecification[0]: price missing or not a number',
      "Product.offers.priceSpecification[0]: priceCurrency USD is not the offer's AUD",
      'Product.offers.priceSpecification[0]: priceType SRP is not StrikethroughPrice or ListPrice',
      'Product.offers: 2 selling prices in priceSpecification; Google reads one per Offer',
      'UnitPriceSpecification: UnitPriceSpecification requires price',
    ]);
  });
  it('handling and transit times in days, from a minimum to a maximum', () => {
    const time = (handlingTime: object) => ({ '@type': 'ShippingDeliveryTime', handlingTime });
    const details = (deliveryTime: object) => ({
      '@type': 'OfferShippingDetails',
      shippingRate: { '@type': 'MonetaryAmount', value: 9, currency: 'AUD' },
      shippingDestination: { '@type': 'DefinedRegion', addressCountry: 'AU' },
      deliveryTime,
    });
    const withTime = (handlingTime: object) => ld({ ...product, offers: { ...product.offers, shippingDetails: details(time(handlingTime)) } });
    expect(problems(withTime({ '@type': 'QuantitativeValue', minValue: 0, maxValue: 1, unitCode: 'DAY' }))).toEqual([]);
    expect(problems(withTime({ '@type': 'QuantitativeValue', minValue: 3, maxValue: 1, unitCode: 'HUR' }))).toEqual([
      'ShippingDeliveryTime: handlingTime is not a QuantitativeValue of days with minValue ≤ maxValue',
    ]);
  });
  it('shipping charged in another currency than the offer is a warning', () => {
    const rate = { '@type': 'MonetaryAmount', value: 25, currency: 'AUD' };
    const offer = {
      ...product.offers,
      priceCurrency: 'USD',
      shippingDetails: [
        { '@type': 'OfferShippingDetails', shippingRate: rate, shippingDestination: { '@type': 'DefinedRegion', addressCountry: 'US' }, deliveryTime: { '@type': 'ShippingDeliveryTime' } },
      ],
    };
    expect(validateJsonLd('/x', ld({ ...product, offers: offer })).warnings).toContain('Product.offers.shippingDetails[0]: shipping is charged in AUD, the offer in USD (Google expects one currency)');
  });
  it('reviews marked up must be shown, and the rating must be their average', () => {
    const review = (author: string, body: string, rating: number) => ({
      '@type': 'Review',
      author: { '@type': 'Person', name: author },
      reviewBody: body,
      reviewRating: { '@type': 'Rating', ratingValue: rating, bestRating: 5 },
    });
    const rated = {
      ...product,
      aggregateRating: { '@type': 'AggregateRating', ratingValue: 4.5, bestRating: 5, reviewCount: 2 },
      review: [review('Ann', 'Lovely & bright.', 5), review('Bo', 'Good.', 4)],
    };
    const shown = '<body><ul><li>Lovely &amp; bright. Ann <span>5 out of 5 stars</span></li><li>Good. Bo 4 out of 5 stars</li></ul></body>';
    expect(problems(`${ld(rated)}${shown}`)).toEqual([]);
    expect(problems(`<body>${ld(rated)}<p>No reviews here</p></body>`)).toEqual([
      'Product.review[0]: the review is marked up but the page does not show its words ("Lovely & bright.")',
      'Product.review[0]: the review is marked up but the page does not show its reviewer ("Ann")',
      'Product.review[0]: the review is marked up but the page does not show its rating ("5 out of 5 stars")',
      'Product.review[1]: the review is marked up but the page does not show its words ("Good.")',
      'Product.review[1]: the review is marked up but the page does not show its reviewer ("Bo")',
      'Product.review[1]: the review is marked up but the page does not show its rating ("4 out of 5 stars")',
    ]);
    // Words inside a script are not shown.
    expect(problems(`<body>${ld(rated)}<script>"Lovely & bright. Ann 5 out of 5 stars Good. Bo 4 out of 5 stars"</script></body>`).length).toBe(6);
    expect(problems(`${ld({ ...rated, aggregateRating: { ...rated.aggregateRating, ratingValue: 5 } })}${shown}`)).toEqual([
      'Product.aggregateRating: ratingValue 5 is not the average of the reviews shown (4.5)',
    ]);
    expect(problems(`${ld({ ...rated, review: undefined })}${shown}`)).toEqual([
      'Product.aggregateRating: counts 2 reviews, the page marks up and shows 0',
      'Product.aggregateRating: ratingValue 4.5 is not the average of the reviews shown (NaN)',
    ]);
  });
  it('a reference to an @id the page does not define', () => {
    const business = { '@context': 'https://schema.org', '@type': 'LocalBusiness', name: 'Shop', address: {}, makesOffer: { '@type': 'Offer', itemOffered: { '@id': 'https://example.com/#nope' } } };
    expect(problems(ld(business))).toEqual(['reference to https://example.com/#nope has no entity with that @id on the page']);
  });
});

describe('pages kept out of search (src/config/search.ts)', () => {
  const sitemap = readFileSync(`${DIST_DIR}/sitemap-0.xml`, 'utf8');
  const listed = new Set([...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname.replace(/(.)\/$/, '$1')));
  const robots = readFileSync(`${DIST_DIR}/robots.txt`, 'utf8');

  it.each(pages.map((page) => [page.path, page] as const))('%s: noindex exactly when it is on the list, and then out of the sitemap', (path, page) => {
    const noindex = /<meta name="robots" content="noindex"/.test(page.html);
    expect(noindex).toBe(isKeptOutOfSearch(path));
    expect(listed.has(path)).toBe(!noindex);
  });

  it('robots.txt disallows the API and every flow on the list', () => {
    for (const path of DISALLOWED_FOR_CRAWLERS) expect(robots).toContain(`Disallow: ${path}\n`);
    expect(DISALLOWED_FOR_CRAWLERS.filter((path) => path !== '/api/' && !isKeptOutOfSearch(path))).toEqual([]);
  });
});
