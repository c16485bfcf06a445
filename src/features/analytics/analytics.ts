/**
 * Analytics, as pure functions over a window-like object so they run in tests without a DOM.
 *
 * With a GA4 measurement ID: the consent defaults come first, then events queue in `dataLayer` through the
 * standard `gtag` function at once, and gtag.js itself is injected (async) only once consent allows it
 * (see consent.ts), after the page has loaded and the browser is idle, together with a lazily imported
 * `web-vitals`; events queued before then are sent when it loads. Without an ID nothing is loaded and every
 * event goes to `console.debug` (once the page is idle), its parameters as JSON text.
 */
import { CLICK_EVENTS, type ClickEvent, GTAG_SCRIPT_URL } from '@/config/constants';
import { analyticsPageLocation, withoutOneTimeValues } from './one-time-values';
import { setConsentDefaults, startConsent, type ConsentDeps } from './consent';
import { afterLoadWhenIdle, type IdleWindow } from '@/lib/idle';

type EventParams = Record<string, string | number | boolean | undefined>;

/** Attribute on <main> holding the landing page's `pageType` (absent on other pages). */
export const LANDING_TYPE_ATTRIBUTE = 'data-landing-page-type';

/** GA4 rejects event names longer than this. */
const MAX_EVENT_NAME = 40;

type Gtag = (...args: unknown[]) => void;

interface ElementLike {
  getAttribute(name: string): string | null;
  textContent: string | null;
  closest?(selector: string): ElementLike | null;
}

interface ScriptLike {
  src: string;
  async: boolean;
}

/** The parts of `window` the module touches. */
export interface AnalyticsWindow extends IdleWindow {
  location: { origin: string; pathname: string; search: string };
  document: {
    title: string;
    referrer: string;
    readyState: string;
    querySelector(selector: string): ElementLike | null;
    addEventListener(type: 'click', listener: (event: { target: unknown }) => void): void;
    createElement(tag: 'script'): ScriptLike;
    head: { appendChild(node: ScriptLike): unknown };
  };
  dataLayer?: unknown[];
  gtag?: Gtag;
}

export interface Metric {
  name: string;
  value: number;
  rating: string;
  id: string;
}
type OnMetric = (report: (metric: Metric) => void) => void;
export interface WebVitalsModule {
  onCLS: OnMetric;
  onFCP: OnMetric;
  onINP: OnMetric;
  onLCP: OnMetric;
  onTTFB: OnMetric;
}

export interface AnalyticsDeps {
  win: AnalyticsWindow;
  /** GA4 measurement ID; empty or undefined means analytics is off. */
  measurementId?: string | undefined;
  /** Imported only when analytics is on. */
  loadWebVitals?: () => Promise<WebVitalsModule>;
  logger?: Pick<Console, 'debug' | 'warn'>;
  now?: () => Date;
  /** Whether and when the tag may load. */
  consent: ConsentDeps;
}

export interface Tracker {
  readonly enabled: boolean;
  send(name: string, params?: EventParams): void;
}

/** `/about.html`, `/about/` → `/about`. */
function normalizePath(pathname: string): string {
  const path = pathname
    .replace(/\.html$/, '')
    .replace(/\/index$/, '/')
    .replace(/(.)\/+$/, '$1');
  return path === '' ? '/' : path;
}

const NAMED_PATHS: Record<string, string> = {
  '/': 'home_page_view',
  '/store': 'store_page_view',
  '/book': 'book_detail_view',
  '/blog': 'blog_page_view',
  '/contact': 'contact_page_view',
  '/about': 'about_page_view',
  '/cart': 'cart_page_view',
  '/checkout': 'checkout_page_view',
};

/**
 * The named event for a known path, or undefined for paths without a name of their own.
 * Any path containing `catholic-books-` counts as a location page; other landing pages
 * share `landing_page_view` (their own page-named event says which one).
 */
export function pathEventName(pathname: string, isLandingPage = false): string | undefined {
  const path = normalizePath(pathname);
  const named = NAMED_PATHS[path];
  if (named) return named;
  if (path.startsWith('/store/product/')) return 'product_detail_view';
  if (path.startsWith('/blog/')) return 'blog_post_view';
  if (path.includes('catholic-books-')) return 'location_page_view';
  if (isLandingPage) return 'landing_page_view';
  return undefined;
}

/**
 * The page-view event named for a landing page: `/catholic-books-sydney` → `catholic_books_sydney_view`.
 * GA4 allows 40 characters, so a too-long name drops its leading `catholic_`, then is cut.
 */
export function landingEventName(pathname: string): string {
  let name = `${pageLabel(pathname)
    .replace(/[^a-z0-9]+/gi, '_')
    .toLowerCase()}_view`;
  if (name.length > MAX_EVENT_NAME) name = name.replace(/^catholic_/, '');
  return name.slice(0, MAX_EVENT_NAME);
}

/** The page label sent with click events: the path without its slash, `home` for `/`. */
function pageLabel(pathname: string): string {
  const path = normalizePath(pathname);
  return path === '/' ? 'home' : path.slice(1);
}

/**
 * With analytics off, each event goes to the debug log. The page-load events, sent while the page starts, are
 * written once it has loaded and is idle: a console call is sent to any attached inspector (Lighthouse attaches
 * one), which on a phone costs more than the page's own start-up script. A later event (a click, which may
 * leave the page) is written at once, with anything still waiting before it. Parameters go as JSON text, which
 * the inspector need not walk.
 */
function debugLogTracker(win: AnalyticsWindow, logger: Pick<Console, 'debug'>): Tracker {
  const log = heldUntilOpen({ enabled: false, send: (name, params) => logger.debug('[analytics off]', name, JSON.stringify(params ?? {})) });
  afterLoadWhenIdle(log.open, win);
  let starting = true;
  void Promise.resolve().then(() => {
    starting = false;
  });
  return {
    enabled: false,
    send(name, params) {
      if (!starting) log.open();
      log.send(name, params);
    },
  };
}

function createTracker({ win, measurementId, logger = console }: AnalyticsDeps): Tracker {
  const id = measurementId?.trim();
  if (!id) return debugLogTracker(win, logger);
  win.dataLayer ??= [];
  const dataLayer = win.dataLayer;
  // The standard gtag stub: calls queue until gtag.js loads and replays them.
  win.gtag ??= function gtag() {
    // biome-ignore lint/complexity/noArguments: gtag.js reads each queued call as an arguments object, not an array.
    dataLayer.push(arguments);
  };
  const gtag = win.gtag;
  setConsentDefaults(gtag);
  gtag('js', new Date());
  // gtag records the page's full address by default; give it one without sign-in codes or payment sessions.
  gtag('config', id, { send_page_view: false, page_location: analyticsPageLocation(win.location) });
  return { enabled: true, send: (name, params) => gtag('event', name, params ?? {}) };
}

function injectGtagScript(win: AnalyticsWindow, measurementId: string): void {
  const script = win.document.createElement('script');
  script.async = true;
  script.src = `${GTAG_SCRIPT_URL}?id=${encodeURIComponent(measurementId)}`;
  win.document.head.appendChild(script);
}

/** The page-load events: page_view, the named path event, and on landing pages the page-named event. */
function trackPageLoad(tracker: Tracker, win: AnalyticsWindow, now: () => Date = () => new Date()): void {
  const { pathname, search } = win.location;
  const path = normalizePath(pathname);
  const landingType = win.document.querySelector(`[${LANDING_TYPE_ATTRIBUTE}]`)?.getAttribute(LANDING_TYPE_ATTRIBUTE) || undefined;

  tracker.send('page_view', { page_path: path, page_title: win.document.title });

  const named = pathEventName(path, landingType !== undefined);
  if (named) tracker.send(named, { page_path: path, query_string: withoutOneTimeValues(search), timestamp: now().toISOString() });

  if (landingType) {
    const source = win.document.referrer || 'direct';
    tracker.send(landingEventName(path), { page_path: path, source, landing_page_type: landingType });
    tracker.send('seo_page_view', { page_path: path, source, landing_page_type: landingType });
  }
}

/** The click event for an element carrying `data-track`, or undefined when it names no known event. */
function clickEvent(element: ElementLike, pathname: string): { name: ClickEvent; params: EventParams } | undefined {
  const name = element.getAttribute('data-track');
  if (!name || !(CLICK_EVENTS as readonly string[]).includes(name)) return undefined;
  const action = element.getAttribute('data-track-action') || (element.textContent ?? '').replace(/\s+/g, ' ').trim();
  return { name: name as ClickEvent, params: { page_label: pageLabel(pathname), action } };
}

/** One delegated listener for every `[data-track]` link or button on the page. */
function listenForClicks(tracker: Tracker, win: AnalyticsWindow): void {
  win.document.addEventListener('click', (event) => {
    const target = event.target as ElementLike | null;
    const element = target?.closest?.('[data-track]');
    if (!element) return;
    const click = clickEvent(element, win.location.pathname);
    if (!click) return;
    tracker.send(click.name, click.params);
    if (win.document.querySelector(`[${LANDING_TYPE_ATTRIBUTE}]`)) {
      tracker.send('seo_conversion', { ...click.params, conversion_type: click.name });
    }
  });
}

function reportWebVitals(tracker: Tracker, vitals: WebVitalsModule): void {
  const report = (metric: Metric) => tracker.send('web_vitals', { metric_name: metric.name, value: metric.value, rating: metric.rating, metric_id: metric.id });
  // web-vitals 5+ has no FID; INP replaced it.
  for (const on of [vitals.onCLS, vitals.onINP, vitals.onFCP, vitals.onLCP, vitals.onTTFB]) on(report);
}

/**
 * Holds events until `open` is called, then sends them in order, so every event reaches the tag after the
 * visitor's consent state (sent before and after the choice alike, each with the state they chose).
 */
function heldUntilOpen(tracker: Tracker): Tracker & { open(): void } {
  let held: Array<[string, EventParams | undefined]> | undefined = [];
  return {
    enabled: tracker.enabled,
    send(name, params) {
      if (held) held.push([name, params]);
      else tracker.send(name, params);
    },
    open() {
      const queued = held ?? [];
      held = undefined;
      for (const [name, params] of queued) tracker.send(name, params);
    },
  };
}

/** Wires everything up once per page. Returns the tracker (tests read it). */
export function startAnalytics(deps: AnalyticsDeps): Tracker {
  const { win, loadWebVitals, logger = console, now } = deps;
  const direct = createTracker(deps);
  const id = deps.measurementId?.trim();
  let tracker: Tracker = direct;
  if (direct.enabled && id && win.gtag) {
    const gated = heldUntilOpen(direct);
    tracker = gated;
    let loaded = false;
    const load = () => {
      gated.open();
      if (loaded) return;
      loaded = true;
      afterLoadWhenIdle(() => {
        injectGtagScript(win, id);
        loadWebVitals?.()
          .then((vitals) => reportWebVitals(tracker, vitals))
          .catch((error: unknown) => logger.warn('web-vitals failed to load', error));
      }, win);
    };
    startConsent(win.gtag, deps.consent, load);
  }
  trackPageLoad(tracker, win, now);
  listenForClicks(tracker, win);
  return tracker;
}
