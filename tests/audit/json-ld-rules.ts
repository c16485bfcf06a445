/**
 * The properties each schema.org type must and should carry, after Google Search Central's structured
 * data documentation (merchant listings and product snippets, return policy, shipping policy, article,
 * organization, local business, FAQ, breadcrumb). A missing required property fails the check; a missing
 * recommended one is a warning in the audit report. `a|b` means at least one of them.
 *
 * `topLevel` rules apply only to a page's own entities, not to the same type nested as a seller or author.
 */
export interface TypeRule {
  required: readonly string[];
  recommended: readonly string[];
  topLevel?: boolean;
  /** Held only where a Product's `offers` holds it (an Offer elsewhere, as a business's `makesOffer`, may only point at a product). */
  productOfferOnly?: boolean;
  /** Which documentation the rule follows. */
  source: string;
}

export const JSON_LD_RULES: Readonly<Record<string, TypeRule>> = {
  Product: {
    required: ['name', 'image', 'offers|review|aggregateRating'],
    recommended: ['description', 'sku', 'brand', 'offers', 'aggregateRating', 'review'],
    source: 'merchant listing, product snippet',
  },
  Offer: {
    required: ['price', 'priceCurrency'],
    recommended: ['availability', 'itemCondition', 'priceValidUntil', 'url', 'shippingDetails', 'hasMerchantReturnPolicy'],
    productOfferOnly: true,
    source: 'merchant listing',
  },
  UnitPriceSpecification: { required: ['price', 'priceCurrency'], recommended: [], source: 'merchant listing (pricing)' },
  AggregateOffer: { required: ['lowPrice', 'priceCurrency'], recommended: ['highPrice', 'offerCount'], productOfferOnly: true, source: 'product snippet' },
  OfferShippingDetails: {
    required: ['shippingDestination', 'shippingRate', 'deliveryTime'],
    recommended: [],
    source: 'merchant listing (shipping details)',
  },
  ShippingDeliveryTime: { required: [], recommended: ['handlingTime', 'transitTime'], source: 'merchant listing (shipping details)' },
  DefinedRegion: { required: ['addressCountry'], recommended: [], source: 'merchant listing (shipping details)' },
  MonetaryAmount: { required: ['currency', 'value|minValue|maxValue'], recommended: [], source: 'merchant listing (shipping rate)' },
  MerchantReturnPolicy: {
    required: ['applicableCountry', 'returnPolicyCategory'],
    recommended: ['returnPolicyCountry', 'merchantReturnLink'],
    source: 'return policy',
  },
  ShippingService: { required: ['shippingConditions'], recommended: ['handlingTime'], source: 'shipping policy' },
  ShippingConditions: { required: ['shippingDestination', 'shippingRate|doesNotShip'], recommended: ['transitTime'], source: 'shipping policy' },
  AggregateRating: { required: ['ratingValue', 'ratingCount|reviewCount'], recommended: ['bestRating'], source: 'review snippet' },
  Review: { required: ['author', 'reviewRating'], recommended: ['reviewBody', 'datePublished'], source: 'review snippet' },
  Rating: { required: ['ratingValue'], recommended: ['bestRating'], source: 'review snippet' },
  BlogPosting: {
    // Google requires none for articles; the shop holds every post to these so it can show as a rich result.
    required: ['headline', 'image', 'datePublished', 'author'],
    recommended: ['dateModified', 'publisher', 'description', 'mainEntityOfPage'],
    source: 'article',
  },
  Organization: {
    required: ['name'],
    recommended: ['url', 'logo', 'sameAs', 'description', 'email', 'address'],
    topLevel: true,
    source: 'organization',
  },
  LocalBusiness: { required: ['name', 'address'], recommended: ['url', 'image', 'telephone', 'openingHoursSpecification'], source: 'local business' },
  FAQPage: { required: ['mainEntity'], recommended: [], source: 'FAQ' },
  Question: { required: ['name', 'acceptedAnswer'], recommended: [], source: 'FAQ' },
  Answer: { required: ['text'], recommended: [], source: 'FAQ' },
  BreadcrumbList: { required: ['itemListElement'], recommended: [], source: 'breadcrumb' },
  ListItem: { required: ['position', 'name'], recommended: ['item'], source: 'breadcrumb' },
};
