/**
 * Analytics against a fake window and a fake `gtag` that records its calls: the landing-page event, click
 * events, web vitals, and that nothing is loaded or sent anywhere without a measurement ID.
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { LANDING_TYPE_ATTRIBUTE, landingEventName, pathEventName, startAnalytics, type AnalyticsWindow, type Metric, type WebVitalsModule } from '@/features/analytics/analytics';
import type { ConsentChoice, ConsentDeps } from '@/features/analytics/consent';

interface FakeElement {
  attributes: Record<string, string>;
  textContent: string;
  parent: FakeElement | undefined;
  getAttribute(name: string): string | null;
  closest(selector: string): FakeElement | null;
}

/** An element with attributes, text and a parent; `closest` understands '[attribute]' selectors. */
function element(attributes: Record<string, string>, textContent = '', parent?: FakeElement): FakeElement {
  return {
    attributes,
    textContent,
    parent,
    getAttribute: (name) => attributes[name] ?? null,
    closest(selector) {
      const name = selector.slice(1, -1);
      for (let node: FakeElement | undefined = this; node; node = node.parent) if (name in node.attributes) return node;
      return null;
    },
  };
}

interface FakeOptions {
  path?: string;
  search?: string;
  referrer?: string;
  landingType?: string;
  readyState?: string;
}

/** A window with just what analytics touches, recording gtag calls, injected scripts and listeners. */
function fakeWindow({ path = '/', search = '', referrer = '', landingType, readyState = 'complete' }: FakeOptions = {}) {
  const gtagCalls: unknown[][] = [];
  const scripts: Array<{ src: string; async: boolean }> = [];
  const clickListeners: Array<(event: { target: unknown }) => void> = [];
  const idleTasks: Array<() => void> = [];
  const main = landingType ? element({ [LANDING_TYPE_ATTRIBUTE]: landingType }) : null;
  const win: AnalyticsWindow = {
    location: { origin: 'https://shop.example', pathname: path, search },
    document: {
      title: 'A page | Awesome Catholic Kids',
      referrer,
      readyState,
      querySelector: (selector) => (selector === `[${LANDING_TYPE_ATTRIBUTE}]` ? main : null),
      addEventListener: (_type, listener) => void clickListeners.push(listener),
      createElement: () => ({ src: '', async: false }),
      head: { appendChild: (node) => void scripts.push(node) },
    },
    addEventListener: (_type, listener) => void idleTasks.push(listener),
    setTimeout: (callback) => void idleTasks.push(callback),
    requestIdleCallback: (callback) => void idleTasks.push(callback),
    gtag: (...args: unknown[]) => void gtagCalls.push(args),
  };
  const events = () => gtagCalls.filter((call) => call[0] === 'event').map((call) => ({ name: call[1] as string, params: call[2] as Record<string, unknown> }));
  const click = (target: unknown) => clickListeners.forEach((listener) => listener({ target }));
  const runIdle = () => {
    while (idleTasks.length) idleTasks.shift()?.();
  };
  return { win, gtagCalls, scripts, events, click, runIdle, clickListeners };
}

const quietLogger = () => ({ debug: vi.fn(), warn: vi.fn() });

/** A consent store holding `choice`, recording what is written; the country look-up is not expected. */
function storedChoice(choice?: ConsentChoice, consentRequired = true) {
  const written: ConsentChoice[] = [];
  const isConsentRequired = vi.fn(async () => consentRequired);
  const consent: ConsentDeps = { store: { read: () => written.at(-1) ?? choice, write: (c) => void written.push(c) }, isConsentRequired };
  return Object.assign(consent, { written });
}
const NOW = () => new Date('2026-11-22T01:00:00.000Z');

describe('analytics with a GA4 measurement ID', () => {
  it('on a landing page sends page_view, the path event and the page-named event with source and landing_page_type', () => {
    const fake = fakeWindow({ path: '/catholic-books-for-kids-ages-5-9', search: '?utm_source=news', referrer: 'https://www.google.com/', landingType: 'age_specific_category' });
    startAnalytics({ win: fake.win, measurementId: 'G-TEST123', logger: quietLogger(), now: NOW, consent: storedChoice('granted') });

    expect(fake.gtagCalls.map((call) => call[0]).slice(0, 4)).toEqual(['consent', 'consent', 'js', 'config']);
    expect(fake.gtagCalls[3]).toEqual(['config', 'G-TEST123', { send_page_view: false, page_location: 'https://shop.example/catholic-books-for-kids-ages-5-9?utm_source=news' }]);
    const events = fake.events();
    expect(events.find((e) => e.name === 'page_view')?.params).toEqual({ page_path: '/catholic-books-for-kids-ages-5-9', page_title: 'A page | Awesome Catholic Kids' });
    // Any path containing catholic-books- is a "location page" for the path event.
    expect(events.find((e) => e.name === 'location_page_view')?.params).toEqual({
      page_path: '/catholic-books-for-kids-ages-5-9',
      query_string: '?utm_source=news',
      timestamp: '2026-11-22T01:00:00.000Z',
    });
    expect(events.find((e) => e.name === 'catholic_books_for_kids_ages_5_9_view')?.params).toEqual({
      page_path: '/catholic-books-for-kids-ages-5-9',
      source: 'https://www.google.com/',
      landing_page_type: 'age_specific_category',
    });
    expect(events.find((e) => e.name === 'seo_page_view')?.params).toMatchObject({ landing_page_type: 'age_specific_category' });
  });

  it("uses 'direct' as the source when there is no referrer", () => {
    const fake = fakeWindow({ path: '/communion-gifts', landingType: 'gift_category' });
    startAnalytics({ win: fake.win, measurementId: 'G-TEST123', logger: quietLogger(), now: NOW, consent: storedChoice('granted') });
    const events = fake.events();
    expect(events.find((e) => e.name === 'communion_gifts_view')?.params).toEqual({ page_path: '/communion-gifts', source: 'direct', landing_page_type: 'gift_category' });
    expect(events.find((e) => e.name === 'landing_page_view')).toBeDefined();
  });

  it('sends no landing event on a page that is not a landing page', () => {
    const fake = fakeWindow({ path: '/about' });
    startAnalytics({ win: fake.win, measurementId: 'G-TEST123', logger: quietLogger(), now: NOW, consent: storedChoice('granted') });
    expect(fake.events().map((e) => e.name)).toEqual(['page_view', 'about_page_view']);
  });

  it('one delegated listener sends the click event named by data-track, with page label and action', () => {
    const fake = fakeWindow({ path: '/catholic-books-sydney', landingType: 'location_specific' });
    startAnalytics({ win: fake.win, measurementId: 'G-TEST123', logger: quietLogger(), now: NOW, consent: storedChoice('granted') });
    expect(fake.clickListeners).toHaveLength(1);
    const before = fake.events().length;

    const link = element({ 'data-track': 'contact_click', href: '/contact' }, '  Contact\n Us ');
    const icon = element({}, '', link); // a click lands on something inside the link
    fake.click(icon);

    const sent = fake.events().slice(before);
    expect(sent[0]).toEqual({ name: 'contact_click', params: { page_label: 'catholic-books-sydney', action: 'Contact Us' } });
    expect(sent[1]).toEqual({ name: 'seo_conversion', params: { page_label: 'catholic-books-sydney', action: 'Contact Us', conversion_type: 'contact_click' } });

    fake.click(element({ href: '/about' }, 'About'));
    fake.click(element({ 'data-track': 'unknown_click' }, 'Nope'));
    expect(fake.events()).toHaveLength(before + 2);
  });

  it('injects gtag.js async only after load and idle, then reports web vitals', async () => {
    const fake = fakeWindow({ path: '/', readyState: 'loading' });
    const report: Array<(metric: Metric) => void> = [];
    const on = (cb: (metric: Metric) => void) => void report.push(cb);
    const vitals: WebVitalsModule = { onCLS: on, onFCP: on, onINP: on, onLCP: on, onTTFB: on };
    const loadWebVitals = vi.fn(async () => vitals);
    startAnalytics({ win: fake.win, measurementId: 'G-TEST123', loadWebVitals, logger: quietLogger(), now: NOW, consent: storedChoice('granted') });

    expect(fake.scripts).toEqual([]);
    expect(loadWebVitals).not.toHaveBeenCalled();
    fake.runIdle(); // load, then idle
    expect(fake.scripts).toEqual([{ src: 'https://www.googletagmanager.com/gtag/js?id=G-TEST123', async: true }]);
    expect(loadWebVitals).toHaveBeenCalledOnce();
    await vi.waitFor(() => expect(report).toHaveLength(5));

    report[0]?.({ name: 'CLS', value: 0.02, rating: 'good', id: 'v5-1' });
    report[3]?.({ name: 'LCP', value: 2900, rating: 'needs-improvement', id: 'v5-2' });
    const vitalsEvents = fake.events().filter((e) => e.name === 'web_vitals');
    expect(vitalsEvents.map((e) => e.params)).toEqual([
      { metric_name: 'CLS', value: 0.02, rating: 'good', metric_id: 'v5-1' },
      { metric_name: 'LCP', value: 2900, rating: 'needs-improvement', metric_id: 'v5-2' },
    ]);
  });

  it('queues calls in dataLayer through the standard gtag stub when gtag.js has not loaded yet', () => {
    const fake = fakeWindow({ path: '/store' });
    delete fake.win.gtag;
    startAnalytics({ win: fake.win, measurementId: 'G-TEST123', logger: quietLogger(), now: NOW, consent: storedChoice('granted') });
    const queued = (fake.win.dataLayer ?? []).map((args) => Array.from(args as ArrayLike<unknown>));
    // The remembered choice is applied before the first event, so every event carries it.
    expect(queued.map((args) => args.slice(0, 2).join(' '))).toEqual([
      'consent default',
      'consent default',
      expect.stringMatching(/^js /),
      'config G-TEST123',
      'consent update',
      'event page_view',
      'event store_page_view',
    ]);
  });
});

describe('analytics without a measurement ID', () => {
  for (const measurementId of [undefined, '', '  ']) {
    it(`loads nothing, calls no gtag and logs events to console.debug (id ${JSON.stringify(measurementId)})`, async () => {
      const fake = fakeWindow({ path: '/catholic-books-london', referrer: 'https://example.org/', landingType: 'location_specific', readyState: 'loading' });
      const createElement = vi.spyOn(fake.win.document, 'createElement');
      const loadWebVitals = vi.fn();
      const logger = quietLogger();
      const tracker = startAnalytics({ win: fake.win, measurementId, loadWebVitals, logger, now: NOW, consent: storedChoice('granted') });

      // Nothing is logged while the page starts; the page-load events are written once it is idle.
      await Promise.resolve();
      expect(logger.debug).not.toHaveBeenCalled();
      fake.runIdle();
      expect(logger.debug).toHaveBeenCalledTimes(4);
      // A click, which may leave the page, is written at once.
      fake.click(element({ 'data-track': 'explore_books_click' }, 'Explore the Book'));

      expect(tracker.enabled).toBe(false);
      expect(createElement).not.toHaveBeenCalled();
      expect(fake.scripts).toEqual([]);
      expect(loadWebVitals).not.toHaveBeenCalled();
      expect(fake.gtagCalls).toEqual([]);
      expect(fake.win.dataLayer).toBeUndefined();
      const logged = logger.debug.mock.calls.map((call) => call[1]);
      expect(logged).toEqual(['page_view', 'location_page_view', 'catholic_books_london_view', 'seo_page_view', 'explore_books_click', 'seo_conversion']);
      expect(JSON.parse(logger.debug.mock.calls[2]?.[2])).toEqual({ page_path: '/catholic-books-london', source: 'https://example.org/', landing_page_type: 'location_specific' });
    });
  }
});

describe('event names', () => {
  it('names the known paths', () => {
    expect(pathEventName('/')).toBe('home_page_view');
    expect(pathEventName('/store')).toBe('store_page_view');
    expect(pathEventName('/book')).toBe('book_detail_view');
    expect(pathEventName('/blog')).toBe('blog_page_view');
    expect(pathEventName('/contact')).toBe('contact_page_view');
    expect(pathEventName('/about.html')).toBe('about_page_view');
    expect(pathEventName('/cart')).toBe('cart_page_view');
    expect(pathEventName('/checkout')).toBe('checkout_page_view');
    expect(pathEventName('/store/product/book-10-reasons')).toBe('product_detail_view');
    expect(pathEventName('/blog/why-faith-based-books-matter')).toBe('blog_post_view');
    expect(pathEventName('/catholic-books-perth')).toBe('location_page_view');
    expect(pathEventName('/baptism-gifts', true)).toBe('landing_page_view');
    expect(pathEventName('/privacy-policy')).toBeUndefined();
  });

  it('gives every landing page its own valid GA4 event name (letters, digits, underscores, at most 40)', () => {
    // The 30 search-landing pages and the schools and parishes page.
    const slugs = readdirSync('content/landing').map((file) => file.replace(/\.yaml$/, ''));
    expect(slugs).toHaveLength(31);
    const names = slugs.map((slug) => landingEventName(`/${slug}`));
    for (const name of names) expect(name).toMatch(/^[a-z][a-z0-9_]{0,39}$/);
    expect(new Set(names).size).toBe(slugs.length);
    expect(landingEventName('/catholic-books-for-preschool-kindergarten')).toBe('books_for_preschool_kindergarten_view');
  });
});
