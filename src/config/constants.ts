/**
 * Business constants — prices, thresholds, limits, timings, storage keys — in one place.
 * Every feature reads its numbers, texts-that-are-rules, timings and keys from here.
 */

export const CURRENCY = 'AUD' as const;
export const LOCALE = 'en-AU' as const;
/** The shop's days are Sydney's: sales days, slips and the back office's dates, wherever the screen is (the database's functions that count days name the same zone in their SQL; tests/integration/shop-time-zone.test.ts keeps them in step). */
export const SHOP_TIME_ZONE = 'Australia/Sydney' as const;

/** Google Analytics 4's tag, the one script the shop loads from Google (the CSP allows exactly its host). */
export const GTAG_SCRIPT_URL = 'https://www.googletagmanager.com/gtag/js';

/** Allowed shipping destinations, ISO 3166-1 alpha-2. */
export const ALLOWED_COUNTRIES = ['AU', 'US', 'GB', 'CA', 'NZ', 'IE'] as const;
export type CountryCode = (typeof ALLOWED_COUNTRIES)[number];
/** The click events the shop records; links and buttons carry one in `data-track` (landing copy names them too). */
export const CLICK_EVENTS = ['explore_books_click', 'contact_click', 'blog_click', 'connect_click'] as const;
export type ClickEvent = (typeof CLICK_EVENTS)[number];
/** Each allowed country's name, as the checkout shows it (the address lookup also reads it). */
export const COUNTRY_NAMES: Record<CountryCode, string> = {
  AU: 'Australia',
  US: 'United States',
  GB: 'United Kingdom',
  CA: 'Canada',
  NZ: 'New Zealand',
  IE: 'Ireland',
};

export const AU_STATE_CODES = ['NSW', 'VIC', 'QLD', 'WA', 'SA', 'TAS', 'ACT', 'NT'] as const;
export type AuStateCode = (typeof AU_STATE_CODES)[number];

export const SHIPPING = {
  /** AU destinations at or above this subtotal (AUD) ship free. */
  freeShippingThreshold: 75,
  /** Where parcels are sent from (Sydney). */
  pickupPostcode: '2170',
  /** Used when live quotes fail, and as the embedded default table; abroad, content/shipping/international-rates.json. */
  fallback: {
    domestic: { id: 'au-standard', name: 'AU Standard Courier', price: 15 },
    /** Australia Post's faster domestic service; never free. */
    express: { id: 'au-express', name: 'AU Express Courier', price: 25 },
  },
  // How long each takes is the publisher's to state: content/shipping/delivery-estimates.json.
  defaultCarrier: 'Australia Post',
  satchelSizes: ['small', 'medium', 'large', 'extra_large'] as const,
  /** Delivery times stated in structured data (business days); the rates come from the rate card. */
  structuredData: { handlingDays: [1, 2], transitDays: [3, 7] },
  sydneyStructuredData: { handlingDays: [1, 3], transitDays: [1, 5], region: 'NSW' },
} as const;

/** The product feed Google Merchant Center fetches (RSS 2.0 with Google's `g:` attributes). */
export const MERCHANT_FEED = {
  path: '/feeds/google-merchant.xml',
  /** Google's product taxonomy: 784 is "Media > Books". */
  googleProductCategory: 784,
} as const;

export const LIMITS = {
  relatedProducts: 3,
  moreArticles: 2,
  drawerOtherLines: 3,
  /** Bounds on free-text inputs, enforced by forms, functions and the database. */
  emailMaxLength: 254,
  nameMaxLength: 100,
  subjectMaxLength: 200,
  messageMaxLength: 5000,
  addressFieldMaxLength: 200,
  /** A stock change's reason, as the history keeps it. */
  stockReasonMaxLength: 200,
  /** The most copies of one title the database holds. */
  stockMax: 100_000,
  /** A gift message: plain text, a paragraph or a few lines, printed on the gift slip. */
  giftMessageMaxLength: 200,
  giftMessageMaxLines: 6,
  maxCartLines: 50,
  maxLineQuantity: 99,
} as const;

/** Copies for a class or a parish: quantity prices come from each book file; above this many copies of a book, a quote. */
export const QUANTITY_PRICING = {
  /** The most copies of one book an order takes (the cart's limit per line); a buyer of more asks for a quote. */
  quoteAbove: LIMITS.maxLineQuantity,
  /** The wording the book pages use before the tiers. */
  heading: 'For classrooms and parishes',
  /** The quote form: a quote (and an invoice) is for any number of copies, not only past the most an order takes. */
  quotePath: '/schools-and-parishes#quote',
} as const;

/** Promotion codes: the shape of a code (checked by the database too) and what the shopper is told. */
export const PROMOTION_CODES = {
  pattern: /^[A-Z0-9][A-Z0-9_-]{2,31}$/,
  maxLength: 32,
} as const;

/** The reminder to a shopper who agreed to one and left the payment page unpaid: one per address in this many days. */
export const CHECKOUT_REMINDER = { oncePerAddressWithinDays: 30 } as const;

export const TIMINGS = {
  bannerFadeOutMs: 300,
  addressSuggestDebounceMs: 250,
  shippingQuoteDebounceMs: 500,
  humanCheckPollMs: 100,
  humanCheckPollLimitMs: 10_000,
  humanCheckTimeoutMs: 8_000,
  /** Once Turnstile shows its checkbox, the visitor gets this long to answer it. */
  humanCheckInteractiveTimeoutMs: 120_000,
  authCallbackRedirectMs: 2_000,
  toastDurationMs: 5_000,
} as const;

export const TOAST = { limit: 1, swipeThresholdPx: 50, hotkey: 'F8' } as const;

export const STORAGE_KEYS = {
  cart: 'cart',
  freeShippingBannerDismissed: 'freeShippingBannerDismissed',
  checkoutSessionId: 'checkoutSessionId',
  /** The checkout's id of this browser's cart (local storage, shared by its tabs): one cart, one payment page. */
  checkoutCartId: 'checkoutCartId',
  /** Where supabase-js keeps the signed-in session. */
  authSession: 'sb-auth-session',
  /** The visitor's analytics choice, 'granted' or 'denied' (local storage, kept until they change it). */
  analyticsConsent: 'analyticsConsent',
  /** Whether the visitor's country asks for consent, 'yes' or 'no' (session storage: one look-up a visit). */
  analyticsConsentRequired: 'analyticsConsentRequired',
  /** The page to return to after signing in (session storage). */
  signInReturnTo: 'signInReturnTo',
  /** The book a signed-out visitor asked to add to their wishlist, added once they have signed in (session storage). */
  pendingWishlistAdd: 'pendingWishlistAdd',
  /** What the shopper typed at checkout, kept for the tab's session until the order is paid (session storage). */
  checkoutDraft: 'checkoutDraft',
  /** The promotion code applied at checkout (local storage, shared by the tabs), until removed, refused or paid. */
  appliedPromotionCode: 'appliedPromotionCode',
} as const;

/**
 * Countries whose law asks for consent before analytics cookies (ISO 3166-1 alpha-2): the UK, the 27 EU
 * members, the rest of the EEA (Iceland, Liechtenstein, Norway) and Switzerland, which Google's consent
 * policy covers too. Everywhere else analytics runs unless the visitor turns it off in Cookie settings.
 */
const EU_MEMBERS = ['AT', 'BE', 'BG', 'HR', 'CY', 'CZ', 'DK', 'EE', 'FI', 'FR', 'DE', 'GR', 'HU', 'IE', 'IT', 'LV', 'LT', 'LU', 'MT', 'NL', 'PL', 'PT', 'RO', 'SK', 'SI', 'ES', 'SE'] as const;
export const CONSENT_REQUIRED_COUNTRIES = ['GB', ...EU_MEMBERS, 'IS', 'LI', 'NO', 'CH'] as const;

export const RETURNS = {
  /** Where the terms state the returns rules (the heading's anchor). */
  termsPath: '/terms-of-service#returns-and-refunds',
  changeOfMindRefunded: false,
} as const;

export const HUMAN_CHECK_ACTIONS = { newsletter: 'newsletter_subscribe', contact: 'contact_form', back_in_stock: 'back_in_stock', quote: 'quote_request' } as const;

/** Turnstile tokens are at most 2048 characters. */
export const HUMAN_CHECK_TOKEN_MAX_LENGTH = 2048;

/** The publisher's back office. */
export const BACK_OFFICE = {
  /** A book's low-stock level when its file sets none: a sale that leaves fewer copies emails the publisher, and the stock list highlights it. */
  lowStockBelow: 10,
  /** Australia Post article numbers: 10 to 23 letters and digits (domestic articles, and S10 like RR123456785AU, whose check digit is checked too). */
  auspostTrackingPattern: /^[A-Z0-9]{10,23}$/,
  auspostTrackingUrl: 'https://auspost.com.au/mypost/track/details/',
  /** Where shoppers without an account follow their order (the token goes in the fragment, never to a server log). */
  orderStatusPath: '/order-status',
  /** A part refund's reason: required, one line of up to this many characters. */
  refundReasonMaxLength: 500,
  /**
   * A part refund still pending this long after it was reserved was cut off (the function stopped between the
   * payment provider's answer and saving it): before the next refund on its order, the provider is asked
   * whether it made it, and it is settled either way. A live call takes seconds.
   */
  partRefundInterruptedAfterMs: 5 * 60_000,
} as const;

/** Confirmed opt-in for the mailing lists (the newsletter, and "Email me when it's available"). */
export const CONSENT = {
  /** How long a confirmation link works; an unconfirmed sign-up is deleted after it (the database's rule too). */
  confirmationValidDays: 7,
  /** The page a confirmation email's links open; the signed token rides in the fragment. */
  confirmPagePath: '/newsletter/confirm',
  /** What that page posts the answer to. */
  confirmApiPath: '/api/email-confirm',
  /** Recorded with a newsletter consent: how it was given. */
  newsletterSource: 'Website sign-up form, confirmed by email',
  /** The local shop's stand-in for SHOP_POSTAL_ADDRESS (a deploy must set its own). */
  localPostalAddress: 'Sydney NSW, Australia (local shop: SHOP_POSTAL_ADDRESS is not set)',
} as const;

/** The newsletter: what the publisher writes, how it is sent, and where its unsubscribe link leads. */
export const NEWSLETTER = {
  subjectMaxLength: 200,
  bodyMaxLength: 50_000,
  /** Emails per call to the email provider (Resend's batch limit is 100). */
  batchSize: 100,
  /** The page the email's unsubscribe link opens; its signed token rides in the fragment. */
  unsubscribePagePath: '/newsletter/unsubscribe',
  /** What mail programs POST to for one-click unsubscribe (RFC 8058), with the token in the query. */
  unsubscribeApiPath: '/api/newsletter-unsubscribe',
  /** The email's colours: the site's navy, cream and gold (the theme in src/styles/global.css; a test keeps them equal). */
  colors: { navy: '#1e3a5f', cream: '#fff8ee', gold: '#e0a526' },
} as const;
