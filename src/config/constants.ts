/**
 * Business constants from the specification (section 9), in one place.
 * Every feature reads its numbers, texts-that-are-rules, timings and keys from here.
 */

export const CURRENCY = 'AUD' as const;
export const LOCALE = 'en-AU' as const;

/** Allowed shipping destinations, ISO 3166-1 alpha-2. */
export const ALLOWED_COUNTRIES = ['AU', 'US', 'GB', 'CA', 'NZ', 'IE'] as const;
export type CountryCode = (typeof ALLOWED_COUNTRIES)[number];

export const AU_STATE_CODES = ['NSW', 'VIC', 'QLD', 'WA', 'SA', 'TAS', 'ACT', 'NT'] as const;
export type AuStateCode = (typeof AU_STATE_CODES)[number];

export const SHIPPING = {
  /** AU destinations at or above this subtotal (AUD) ship free. */
  freeShippingThreshold: 75,
  /** Where parcels are sent from (Sydney). */
  pickupPostcode: '2170',
  /** Used when live quotes fail, and as the embedded default table. */
  fallback: {
    domestic: { id: 'au-standard', name: 'AU Standard Courier', price: 15, etaDays: '3-7 business days' },
    international: { id: 'international-flat', name: 'International Shipping', price: 25, etaDays: 'Confirmed by the seller after purchase' },
  },
  defaultDeliveryEstimate: '3-7 business days',
  /** Shown on the confirmation page when the order carries no estimate. */
  confirmationDeliveryEstimate: '5-7 business days',
  defaultCarrier: 'Australia Post',
  satchelSizes: ['small', 'medium', 'large', 'extra_large'] as const,
  /** Figures stated in structured data. */
  structuredData: { rate: 8.95, handlingDays: [1, 2], transitDays: [3, 7] },
  sydneyStructuredData: { handlingDays: [1, 3], transitDays: [1, 5], region: 'NSW' },
} as const;

export const BOOK = {
  id: 'book-10-reasons',
  sku: 'book-10-reasons',
  title: '10 Reasons Why Being Catholic is Awesome!',
  category: "Children's Books",
  price: 22,
  pages: 14,
  language: 'English',
  format: 'Hardcover board book',
  weightGrams: 300,
  dimensionsCm: { length: 21.6, width: 21.6, height: 0.6 },
  ageRange: { min: 3, max: 9 },
  /** The wider band used in structured data. */
  structuredDataAgeRange: { min: 3, max: 10 },
  /** Regional prices the US and UK pages show in structured data. */
  regionalPrices: { USD: 18, GBP: 18 },
  rating: { value: 5, best: 5, count: 4 },
  country: 'AU',
  publisherRegion: 'NSW',
} as const;

export const LIMITS = {
  relatedProducts: 3,
  moreArticles: 2,
  drawerOtherLines: 3,
  guideFaqEntries: 6,
  orderNumberLength: 8,
  /** Bounds on free-text inputs, enforced by forms, functions and the database. */
  emailMaxLength: 254,
  nameMaxLength: 100,
  subjectMaxLength: 200,
  messageMaxLength: 5000,
  addressFieldMaxLength: 200,
  maxCartLines: 50,
  maxLineQuantity: 99,
  minimumSiteAge: 13,
} as const;

export const BREAKPOINTS = { mobileMaxPx: 768 } as const;

export const TIMINGS = {
  bannerFadeInMs: 100,
  bannerFadeOutMs: 300,
  addressSuggestDebounceMs: 250,
  shippingQuoteDebounceMs: 500,
  humanCheckPollMs: 100,
  humanCheckPollLimitMs: 10_000,
  humanCheckTimeoutMs: 8_000,
  authCallbackRedirectMs: 2_000,
  authRefreshCheckMs: 30_000,
  authRefreshMarginSeconds: 90,
  toastDurationMs: 5_000,
  toastRemoveDelayMs: 1_000_000,
} as const;

export const TOAST = { limit: 1, swipeThresholdPx: 50, hotkey: 'F8' } as const;

export const STORAGE_KEYS = {
  cart: 'cart',
  freeShippingBannerDismissed: 'freeShippingBannerDismissed',
  checkoutSessionId: 'checkoutSessionId',
  /** Where supabase-js keeps the signed-in session. */
  authSession: 'sb-auth-session',
} as const;

export const RETURNS = {
  restockingFeePercent: 10,
  changeOfMindRefunded: false,
  shippingRefunded: false,
} as const;

export const HUMAN_CHECK_ACTIONS = { newsletter: 'newsletter_subscribe', contact: 'contact_form' } as const;

/** The simple email pattern the checkout and forms use. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
