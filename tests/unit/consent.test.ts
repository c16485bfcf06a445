/**
 * Analytics consent: which countries ask, the Consent Mode defaults before the tag, when gtag.js may load
 * (a stored choice, the visitor's Accept, or a country that does not ask), the remembered choice, the
 * once-a-visit country look-up, and the visitor-region function.
 */
import { describe, expect, it, vi } from 'vitest';
import visitorRegion from '../../functions/visitor-region';
import { CONSENT_REQUIRED_COUNTRIES, STORAGE_KEYS } from '@/config/constants';
import { startAnalytics, type AnalyticsWindow } from '@/features/analytics/analytics';
import { consentRequiredIn, type ConsentChoice, type ConsentControls } from '@/features/analytics/consent';
import { consentStore, isConsentRequired } from '@/features/analytics/consent-browser';

/** A window with what analytics touches; gtag calls, injected scripts and idle tasks are recorded. */
function fakeWindow() {
  const gtagCalls: unknown[][] = [];
  const scripts: string[] = [];
  const idleTasks: Array<() => void> = [];
  const win: AnalyticsWindow = {
    location: { origin: 'https://shop.example', pathname: '/', search: '' },
    document: {
      title: 'Home',
      referrer: '',
      readyState: 'complete',
      querySelector: () => null,
      addEventListener: () => undefined,
      createElement: () => ({ src: '', async: false }),
      head: { appendChild: (node) => void scripts.push(node.src) },
    },
    addEventListener: (_type, listener) => void idleTasks.push(listener),
    setTimeout: (callback) => void idleTasks.push(callback),
    requestIdleCallback: (callback) => void idleTasks.push(callback),
    gtag: (...args: unknown[]) => void gtagCalls.push(args),
  };
  const runIdle = () => {
    while (idleTasks.length) idleTasks.shift()?.();
  };
  const consentCalls = () => gtagCalls.filter((call) => call[0] === 'consent');
  return { win, gtagCalls, scripts, runIdle, consentCalls };
}

/** A banner that records what it was asked to do and lets the test click its buttons. */
function fakeBanner() {
  const shown: boolean[] = [];
  let hidden = true;
  let handlers: Parameters<ConsentControls['listen']>[0] | undefined;
  const controls: ConsentControls = {
    show: (fromSettings) => {
      hidden = false;
      shown.push(fromSettings);
    },
    hide: () => {
      hidden = true;
    },
    listen: (h) => {
      handlers = h;
    },
  };
  return {
    controls,
    shown,
    isHidden: () => hidden,
    click: (choice: ConsentChoice) => handlers?.choose(choice),
    openSettings: () => handlers?.openSettings(),
  };
}

function memoryStorage(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial));
  return { getItem: (key: string) => items.get(key) ?? null, setItem: (key: string, value: string) => void items.set(key, value), items };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
const GTAG = 'https://www.googletagmanager.com/gtag/js?id=G-TEST123';

function start({ stored, consentRequired = true }: { stored?: Record<string, string>; consentRequired?: boolean | Error } = {}) {
  const fake = fakeWindow();
  const banner = fakeBanner();
  const storage = memoryStorage(stored);
  const lookUp = vi.fn(async () => {
    if (consentRequired instanceof Error) throw consentRequired;
    return consentRequired;
  });
  startAnalytics({
    win: fake.win,
    measurementId: 'G-TEST123',
    logger: { debug: vi.fn(), warn: vi.fn() },
    consent: { store: consentStore(() => storage), isConsentRequired: lookUp, controls: banner.controls },
  });
  return { ...fake, banner, storage, lookUp };
}

describe('where consent is needed', () => {
  it('is the UK, the EU/EEA and Switzerland, and an unknown country; not Australia or the US', () => {
    for (const country of ['GB', 'gb', 'IE', 'FR', 'DE', 'NO', 'IS', 'LI', 'CH', null, undefined, '']) expect(consentRequiredIn(country), String(country)).toBe(true);
    for (const country of ['AU', 'US', 'NZ', 'CA']) expect(consentRequiredIn(country), country).toBe(false);
    expect(CONSENT_REQUIRED_COUNTRIES).toHaveLength(32); // UK + 27 EU + 3 EEA + Switzerland
  });
});

describe('Consent Mode defaults', () => {
  it('deny storage in the consent countries and grant it elsewhere, before the tag is configured', () => {
    const fake = start();
    expect(fake.gtagCalls[0]).toEqual([
      'consent',
      'default',
      { analytics_storage: 'denied', ad_storage: 'denied', ad_user_data: 'denied', ad_personalization: 'denied', region: [...CONSENT_REQUIRED_COUNTRIES] },
    ]);
    expect(fake.gtagCalls[1]).toEqual(['consent', 'default', { analytics_storage: 'granted', ad_storage: 'granted', ad_user_data: 'denied', ad_personalization: 'denied' }]);
    expect(fake.gtagCalls[2]?.[0]).toBe('js');
    expect(fake.gtagCalls[3]?.[0]).toBe('config');
  });
});

describe('a visitor whose country asks for consent', () => {
  it('sees the banner, and gtag.js is not loaded while they have not chosen', async () => {
    const fake = start({ consentRequired: true });
    await flush();
    fake.runIdle();
    expect(fake.banner.shown).toEqual([false]);
    expect(fake.scripts).toEqual([]);
    expect(fake.consentCalls().filter((call) => call[1] === 'update')).toEqual([]);
  });

  it('Accept updates consent to granted, remembers it, hides the banner and loads gtag.js once', async () => {
    const fake = start({ consentRequired: true });
    await flush();
    fake.banner.click('granted');
    fake.runIdle();
    expect(fake.consentCalls().at(-1)).toEqual(['consent', 'update', { analytics_storage: 'granted', ad_storage: 'granted', ad_user_data: 'denied', ad_personalization: 'denied' }]);
    expect(fake.storage.items.get(STORAGE_KEYS.analyticsConsent)).toBe('granted');
    expect(fake.banner.isHidden()).toBe(true);
    expect(fake.scripts).toEqual([GTAG]);
    fake.banner.click('granted');
    fake.runIdle();
    expect(fake.scripts).toEqual([GTAG]);
  });

  it('events wait for the choice, so they reach the tag after it, carrying the state the visitor chose', async () => {
    const fake = start({ consentRequired: true });
    await flush();
    expect(fake.gtagCalls.filter((call) => call[0] === 'event')).toEqual([]);
    fake.banner.click('granted');
    const commands = fake.gtagCalls.map((call) => `${String(call[0])} ${String(call[1])}`);
    expect(commands.slice(commands.indexOf('consent update'))).toEqual(['consent update', 'event page_view', 'event home_page_view']);
  });

  it('Reject updates consent to denied, remembers it and loads nothing', async () => {
    const fake = start({ consentRequired: true });
    await flush();
    fake.banner.click('denied');
    fake.runIdle();
    expect(fake.consentCalls().at(-1)).toEqual(['consent', 'update', expect.objectContaining({ analytics_storage: 'denied', ad_storage: 'denied' })]);
    expect(fake.storage.items.get(STORAGE_KEYS.analyticsConsent)).toBe('denied');
    expect(fake.scripts).toEqual([]);
  });

  it('is asked when the look-up fails', async () => {
    const fake = start({ consentRequired: new Error('offline') });
    await flush();
    expect(fake.banner.shown).toEqual([false]);
    expect(fake.scripts).toEqual([]);
  });
});

describe('a remembered choice', () => {
  it('denied: no banner, no look-up, nothing loaded; Cookie settings reopens the banner with focus, and Accept then loads the tag', async () => {
    const fake = start({ stored: { [STORAGE_KEYS.analyticsConsent]: 'denied' }, consentRequired: false });
    await flush();
    fake.runIdle();
    expect(fake.lookUp).not.toHaveBeenCalled();
    expect(fake.banner.shown).toEqual([]);
    expect(fake.scripts).toEqual([]);
    expect(fake.consentCalls().at(-1)).toEqual(['consent', 'update', expect.objectContaining({ analytics_storage: 'denied' })]);

    fake.banner.openSettings();
    expect(fake.banner.shown).toEqual([true]);
    fake.banner.click('granted');
    fake.runIdle();
    expect(fake.scripts).toEqual([GTAG]);
  });

  it('granted: no banner and gtag.js loads, even in a country that asks', async () => {
    const fake = start({ stored: { [STORAGE_KEYS.analyticsConsent]: 'granted' }, consentRequired: true });
    fake.runIdle();
    expect(fake.banner.shown).toEqual([]);
    expect(fake.scripts).toEqual([GTAG]);
  });

  it('an unreadable stored value counts as no choice', async () => {
    const fake = start({ stored: { [STORAGE_KEYS.analyticsConsent]: 'maybe' }, consentRequired: true });
    await flush();
    expect(fake.banner.shown).toEqual([false]);
  });
});

describe('a visitor whose country does not ask', () => {
  it('gets no banner and gtag.js loads after load and idle; Cookie settings can still turn it off', async () => {
    const fake = start({ consentRequired: false });
    await flush();
    expect(fake.scripts).toEqual([]);
    fake.runIdle();
    expect(fake.banner.shown).toEqual([]);
    expect(fake.scripts).toEqual([GTAG]);
    fake.banner.openSettings();
    fake.banner.click('denied');
    expect(fake.consentCalls().at(-1)).toEqual(['consent', 'update', expect.objectContaining({ analytics_storage: 'denied' })]);
    expect(fake.storage.items.get(STORAGE_KEYS.analyticsConsent)).toBe('denied');
  });
});

describe('the browser side', () => {
  const answer = (body: unknown, status = 200) => vi.fn(async () => new Response(JSON.stringify(body), { status }));

  it('asks the site once a visit and remembers the answer in session storage', async () => {
    const session = memoryStorage();
    const fetchFn = answer({ country: 'AU', consentRequired: false });
    expect(await isConsentRequired(fetchFn, () => session)).toBe(false);
    expect(await isConsentRequired(fetchFn, () => session)).toBe(false);
    expect(fetchFn).toHaveBeenCalledOnce();
    expect(fetchFn).toHaveBeenCalledWith('/api/visitor-region', expect.anything());
    expect(session.items.get(STORAGE_KEYS.analyticsConsentRequired)).toBe('no');
  });

  it('treats an error answer, a network failure or an odd body as needing consent', async () => {
    expect(await isConsentRequired(answer({ error: 'x' }, 502), () => memoryStorage())).toBe(true);
    expect(
      await isConsentRequired(
        vi.fn(async () => Promise.reject(new TypeError('offline'))),
        () => memoryStorage(),
      ),
    ).toBe(true);
    expect(await isConsentRequired(answer({}), () => memoryStorage())).toBe(true);
  });

  it('still works when storage throws (private mode): nothing is remembered', async () => {
    const broken = () => {
      throw new Error('SecurityError');
    };
    const store = consentStore(broken);
    expect(store.read()).toBeUndefined();
    expect(() => store.write('granted')).not.toThrow();
    expect(await isConsentRequired(answer({ country: 'GB', consentRequired: true }), broken)).toBe(true);
  });
});

describe('the visitor-region function', () => {
  const ask = async (code?: string) => (await visitorRegion(new Request('http://localhost/api/visitor-region'), { geo: { country: { code } } })).json();

  it("answers the country from Netlify's geolocation and whether it asks for consent", async () => {
    expect(await ask('GB')).toEqual({ country: 'GB', consentRequired: true });
    expect(await ask('de')).toEqual({ country: 'DE', consentRequired: true });
    expect(await ask('AU')).toEqual({ country: 'AU', consentRequired: false });
    expect(await ask('US')).toEqual({ country: 'US', consentRequired: false });
  });

  it('answers an unknown or malformed country as unknown, needing consent', async () => {
    expect(await ask(undefined)).toEqual({ country: null, consentRequired: true });
    expect(await ask('XYZ')).toEqual({ country: null, consentRequired: true });
    expect(await (await visitorRegion(new Request('http://localhost/api/visitor-region'))).json()).toEqual({ country: null, consentRequired: true });
  });
});
