/**
 * Typed content collections. Copy lives in the top-level `content/` folder, edited in git by the publisher;
 * live data (stock, prices charged, orders) never goes here.
 */
import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { z } from 'astro/zod';
import { CLICK_EVENTS } from '@/config/constants';
import { withClearErrors } from '@/features/content/content-errors';
import { withInternalLinkCheck } from '@/features/content/internal-links';
import { bookFrontmatter } from '@/features/catalog/book-schema';
import { catalogDir } from '@/features/catalog/catalog-dir';
import { rateCardProblem } from '@/lib/international-rates';

const link = z.object({
  label: z.string().min(1),
  href: z.string().regex(/^\/[a-z0-9\-/]*(#[a-z0-9-]+)?$/, 'internal path like /book, or a place on a page like /schools-and-parishes#quote'),
  /** Analytics click event, when the click is one the shop records. */
  event: z.enum(CLICK_EVENTS).optional(),
});

/**
 * `sample: true` marks copy that stands in for the publisher's own: every build lists the file, and a
 * production build refuses it until it is replaced or confirmed (the line removed).
 */
const sample = z.boolean().optional();

const faqItem = z.object({ question: z.string().min(1), answer: z.string().min(1) });
const card = z.object({ title: z.string().min(1), text: z.string().min(1) });
/** A block's heading, and the optional line under it. */
const headed = { heading: z.string().min(1), intro: z.string().optional() };

/** The blocks a landing page is composed of; one component renders each type. */
const landingBlock = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('hero'),
    eyebrow: z.string().optional(),
    heading: z.string().min(1),
    intro: z.string().min(1),
    buttons: z.array(link).max(2).default([]),
  }),
  z.object({
    type: z.literal('prose'),
    heading: z.string().min(1),
    paragraphs: z.array(z.string().min(1)).min(1),
  }),
  z.object({
    type: z.literal('cards'),
    ...headed,
    items: z.array(card).min(1).max(6),
    /** A link under the cards (e.g. schools to the page for ordering on account). */
    link: link.optional(),
  }),
  z.object({
    type: z.literal('featuredBook'),
    heading: z.string().default('Our Featured Book'),
    text: z.string().min(1),
    buttonLabel: z.string().default('Learn More'),
  }),
  z.object({
    type: z.literal('ageGuide'),
    ...headed,
    bands: z.array(z.object({ ages: z.string().regex(/^\d+-\d+$/), title: z.string().min(1), text: z.string().min(1) })).min(1),
  }),
  z.object({
    type: z.literal('countingList'),
    ...headed,
    items: z.array(z.object({ number: z.number().int().min(1).max(10), word: z.string().min(1), text: z.string().min(1) })).min(1),
  }),
  z.object({
    type: z.literal('links'),
    ...headed,
    items: z.array(link.extend({ text: z.string().optional() })).min(1),
  }),
  z.object({
    type: z.literal('cityFacts'),
    heading: z.string().min(1),
    items: z.array(card).min(1).max(6),
  }),
  z.object({
    type: z.literal('faq'),
    heading: z.string().default('Frequently Asked Questions'),
    items: z.array(faqItem).min(1),
  }),
  /** Every book's quantity prices, from the book files. */
  z.object({ type: z.literal('quantityPrices'), ...headed }),
  /** The quote request form for schools and parishes (a React island): copies of every book for sale. */
  z.object({ type: z.literal('quoteForm'), ...headed }),
  z.object({
    type: z.literal('cta'),
    heading: z.string().min(1),
    text: z.string().min(1),
    buttons: z
      .array(link)
      .min(1)
      .max(2)
      .default([
        { label: 'Explore Our Books', href: '/book', event: 'explore_books_click' },
        { label: 'Contact Us', href: '/contact', event: 'contact_click' },
      ]),
  }),
]);

export type LandingBlock = z.infer<typeof landingBlock>;

const landing = defineCollection({
  loader: glob({ pattern: '*.yaml', base: './content/landing' }),
  schema: z.object({
    title: z.string().min(10).max(70),
    description: z.string().min(50).max(170),
    breadcrumb: z.string().min(1),
    /** `landing_page_type` sent with the landing-page analytics event. */
    pageType: z.enum([
      'education',
      'guide',
      'educational',
      'parent_resources',
      'location_specific',
      'transactional',
      'resource_category',
      'gift_category',
      'age_specific_category',
      'product_specific_category',
    ]),
    /** Where the Product structured data's shipping goes: every country (AU), or the US or the UK. Prices are always AUD. */
    market: z.enum(['AU', 'US', 'UK']).default('AU'),
    productSchema: z.boolean().default(true),
    /**
     * LocalBusiness structured data: the publisher (always in Sydney) serving this page's city.
     * `shippingDetails` adds the Sydney delivery figures (lead time, transit, NSW, opening hours).
     */
    localBusiness: z.object({ areaServed: z.string().min(1), shippingDetails: z.boolean().default(false) }).optional(),
    blocks: z.array(landingBlock).min(3),
    sample,
  }),
});

const blog = defineCollection({
  loader: withInternalLinkCheck(glob({ pattern: '*.mdx', base: './content/blog' })),
  schema: z.object({
    title: z.string().min(1),
    category: z.string().min(1),
    date: z.coerce.date(),
    excerpt: z.string().min(1).max(300),
    image: z.string().startsWith('/images/'),
    imageAlt: z.string().min(1),
    sample,
  }),
});

const legal = defineCollection({
  loader: withInternalLinkCheck(glob({ pattern: '*.mdx', base: './content/legal' })),
  schema: z.object({ title: z.string().min(1), description: z.string().min(50).max(170), updated: z.coerce.date(), sample }),
});

/**
 * The catalog: one MDX file per book (every fact in the frontmatter, the description as the body) with its
 * cover beside it. CATALOG_DIR points the build at another folder of book files (the tests' fixture copy).
 */
const books = defineCollection({
  loader: glob({ pattern: '*.mdx', base: catalogDir(), generateId: ({ data }) => String(data.id) }),
  schema: ({ image }) => bookFrontmatter(image()),
});

const site = defineCollection({
  loader: glob({ pattern: ['*.yaml', '!settings.yaml'], base: './content/site' }),
  schema: z.object({
    heading: z.string(),
    intro: z.string(),
    sections: z.array(z.object({ heading: z.string(), paragraphs: z.array(z.string()).default([]), items: z.array(card).default([]) })),
    sample,
  }),
});

/** The shop's own details that are not a page's copy: `content/site/settings.yaml`. */
const settings = defineCollection({
  loader: glob({ pattern: 'settings.yaml', base: './content/site' }),
  schema: z.object({
    /** The sender's return address on every packing slip, one line each as on an envelope. */
    returnAddress: z.array(z.string().trim().min(1)).min(2),
    sample,
  }),
});

/** A range of business days, fewest first: [3, 7]. */
const businessDays = z.tuple([z.number().int().min(0).max(90), z.number().int().min(1).max(90)]).refine(([min, max]) => min <= max, 'the fewest days first, then the most, e.g. [3, 7]');

/** One range per service: Express has its own, at home and abroad. */
const serviceDays = z.strictObject({ standard: businessDays, express: businessDays });

/**
 * How long delivery takes, per destination and service: `content/shipping/delivery-estimates.json` (JSON, so the functions
 * import the same file; src/features/checkout/delivery-estimates.ts reads it).
 */
const deliveryEstimates = defineCollection({
  loader: glob({ pattern: 'delivery-estimates.json', base: './content/shipping' }),
  schema: z.strictObject({
    about: z.string().optional(),
    australia: serviceDays,
    unitedStates: serviceDays,
    unitedKingdom: serviceDays,
    canada: serviceDays,
    newZealand: serviceDays,
    ireland: serviceDays,
    restOfWorld: serviceDays,
    sample,
  }),
});

/** Prices for one service to one destination: one per weight band, in AUD. */
const servicePrices = z.strictObject({ standard: z.array(z.number().positive()), express: z.array(z.number().positive()) });

/**
 * Australia Post's International Standard and Express by destination and weight band:
 * `content/shipping/international-rates.json` (JSON, so the functions import the same file; src/lib/international-rates.ts
 * reads it). The checkout charges it when Australia Post's own prices cannot be had.
 */
const internationalRates = defineCollection({
  loader: glob({ pattern: 'international-rates.json', base: './content/shipping' }),
  schema: z
    .strictObject({
      about: z.string().optional(),
      weightBandsKg: z.array(z.number().positive()).min(1),
      unitedStates: servicePrices,
      unitedKingdom: servicePrices,
      canada: servicePrices,
      newZealand: servicePrices,
      ireland: servicePrices,
      restOfWorld: servicePrices,
      sample,
    })
    .superRefine((card, context) => {
      const problem = rateCardProblem(card);
      if (problem) context.addIssue({ code: 'custom', message: problem });
    }),
});

export const collections = withClearErrors({ landing, blog, legal, books, site, settings, deliveryEstimates, internationalRates });
