/**
 * Address and courier look-ups cost what a real shopper costs: each needs the session the checkout page was given
 * (signed, expiring, bound to the visitor's cookie), at most 60 of each kind a minute per visitor, counted in the
 * database; and one address's suggestions and its details call share one Google session.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { readServerEnv } from '../../src/config/env';
import { LOOKUP_SESSION } from '../../src/features/checkout/contract';
import addressPlaces from '../../functions/address-places';
import { issueLookupSession, SESSION_MINUTES, VISITOR_COOKIE } from '../../functions/_lib/lookup-session';
import { startTestShop, type TestShop } from '../helpers/shop';

let t: TestShop;
beforeAll(async () => {
  t = await startTestShop();
});
afterAll(() => t.close());

interface Visitor {
  cookie: string;
  session: string;
}

/** A checkout page: its look-up session and the visitor cookie that came with it. */
async function checkoutPage(): Promise<Visitor> {
  const response = await fetch(`${t.url}${LOOKUP_SESSION.path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  expect(response.status).toBe(200);
  const setCookie = response.headers.get('set-cookie') ?? '';
  expect(setCookie).toMatch(new RegExp(`^${VISITOR_COOKIE}=[A-Za-z0-9_-]{43}; Path=/api/; HttpOnly; SameSite=Strict`));
  const { session, expiresInSeconds } = (await response.json()) as { session: string; expiresInSeconds: number };
  expect(expiresInSeconds).toBe(SESSION_MINUTES * 60);
  return { cookie: setCookie.split(';')[0]!, session };
}

async function call(path: 'address-places' | 'courier-rates', body: Record<string, unknown>, cookie?: string) {
  const response = await fetch(`${t.url}/api/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookie && { cookie }) },
    body: JSON.stringify(body),
  });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as Record<string, unknown> };
}
const suggest = (v: Partial<Visitor>, input = '1 Church St') => call('address-places', { action: 'suggest', input, country: 'AU', lookupSession: v.session }, v.cookie);
const rates = (v: Partial<Visitor>) =>
  call(
    'courier-rates',
    { deliveryPostcode: '2150', deliverySuburb: 'Parramatta', deliveryState: 'NSW', deliveryCountry: 'AU', cart: [{ id: 'book-10-reasons', quantity: 1 }], lookupSession: v.session },
    v.cookie,
  );

describe('a look-up without the checkout page’s session', () => {
  it('is refused 401 with a message and the code the page renews on: missing, forged, expired, or another visitor’s', async () => {
    const page = await checkoutPage();
    const other = await checkoutPage();
    const [header, payload] = page.session.split('.');
    const forged = `${header}.${payload}.${'A'.repeat(43)}`;
    const expired = (await issueLookupSession(readServerEnv(), new Request(t.url, { headers: { cookie: page.cookie } }), Date.now() - (SESSION_MINUTES + 1) * 60_000)).token;
    for (const visitor of [{ cookie: page.cookie }, { session: page.session }, { ...page, session: forged }, { ...page, session: expired }, { cookie: other.cookie, session: page.session }]) {
      for (const answer of [await suggest(visitor), await rates(visitor)]) {
        expect(answer.status, JSON.stringify(visitor)).toBe(401);
        expect(answer.body.code).toBe(LOOKUP_SESSION.sessionRefused);
        expect(answer.body.error).toMatch(/need this checkout page's session, which is missing or has expired\. Please reload the page/);
      }
    }
    expect((await suggest(page)).status).toBe(200);
    expect((await rates(page)).status).toBe(200);
  });

  it('still answers bad input 400 first, and a too-short input with no suggestions and nothing counted', async () => {
    expect((await call('address-places', { action: 'geocode' })).status).toBe(400);
    expect(await suggest({}, 'ab')).toMatchObject({ status: 200, body: { predictions: [] } });
  });
});

describe('the look-up limit', () => {
  it('accepts 60 address look-ups a minute per visitor; the 61st is 429 with Retry-After, and courier rates count apart', async () => {
    const page = await checkoutPage();
    const statuses: number[] = [];
    for (let i = 0; i < 60; i += 1) statuses.push((await suggest(page)).status);
    expect(statuses.every((s) => s === 200)).toBe(true);
    const refused = await suggest(page);
    expect(refused).toMatchObject({ status: 429, retryAfter: '60' });
    expect(refused.body.error).toBe('Too many look-ups from this checkout (at most 60 a minute). Please wait a minute and try again, or type the address.');
    // A new session for the same visitor is the same visitor: still refused.
    const again = await fetch(`${t.url}${LOOKUP_SESSION.path}`, { method: 'POST', headers: { cookie: page.cookie } });
    expect(again.headers.get('set-cookie')).toBeNull();
    expect((await suggest({ cookie: page.cookie, session: ((await again.json()) as { session: string }).session })).status).toBe(429);
    expect((await rates(page)).status).toBe(200);
    expect((await suggest(await checkoutPage())).status).toBe(200);
  });
});

describe('one Google session per address', () => {
  const calls: Array<{ url: string; sessionToken: string | undefined }> = [];
  afterEach(() => {
    vi.restoreAllMocks();
    delete process.env.GOOGLE_PLACES_API_KEY;
  });

  it('the suggestions and the details call carry the session’s Places token; the details answer a new session for the next address', async () => {
    const page = await checkoutPage();
    process.env.GOOGLE_PLACES_API_KEY = 'test-places-key';
    const realFetch = globalThis.fetch;
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      if (!url.startsWith('https://places.googleapis.com/')) return realFetch(input, init);
      if (url.includes(':autocomplete')) {
        calls.push({ url, sessionToken: (JSON.parse(String(init?.body)) as { sessionToken?: string }).sessionToken });
        return Response.json({ suggestions: [{ placePrediction: { placeId: 'place-1', text: { text: '1 Church Street, Parramatta NSW' } } }] });
      }
      calls.push({ url, sessionToken: new URL(url).searchParams.get('sessionToken') ?? undefined });
      return Response.json({
        formattedAddress: '1 Church St, Parramatta NSW 2150, Australia',
        addressComponents: [
          { longText: '1', types: ['street_number'] },
          { longText: 'Church Street', types: ['route'] },
          { longText: 'Parramatta', types: ['locality'] },
          { shortText: 'NSW', types: ['administrative_area_level_1'] },
          { longText: '2150', types: ['postal_code'] },
          { shortText: 'AU', types: ['country'] },
        ],
      });
    });
    const ask = async (body: Record<string, unknown>, session: string) => {
      const response = await addressPlaces(
        new Request(`${t.url}/api/address-places`, { method: 'POST', headers: { 'content-type': 'application/json', cookie: page.cookie }, body: JSON.stringify({ ...body, lookupSession: session }) }),
      );
      return (await response.json()) as Record<string, unknown>;
    };
    await ask({ action: 'suggest', input: '1 Chu', country: 'AU' }, page.session);
    await ask({ action: 'suggest', input: '1 Church', country: 'AU' }, page.session);
    const details = await ask({ action: 'details', place_id: 'place-1' }, page.session);
    expect(details).toMatchObject({ ok: true, address: { line1: '1 Church Street', city: 'Parramatta', postal_code: '2150' } });
    await ask({ action: 'suggest', input: '9 King', country: 'AU' }, details.lookupSession as string);

    const [first, second, detailsCall, next] = calls;
    expect(first!.sessionToken).toMatch(/^[0-9a-f-]{36}$/);
    expect([second!.sessionToken, detailsCall!.sessionToken]).toEqual([first!.sessionToken, first!.sessionToken]);
    expect(next!.sessionToken).toMatch(/^[0-9a-f-]{36}$/);
    expect(next!.sessionToken).not.toBe(first!.sessionToken);
  });
});
