/**
 * Where signing in may lead: one rule for the /auth?return_to= address, the page remembered across the
 * provider's redirect and the page the visitor is sent to. Only pages of the shop's own origin, never a sign-in
 * page, and always as the path a browser would resolve the value to.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '../../src/config/constants';
import { rememberReturnPath, returnPath, signInPath, takeReturnPath } from '../../src/features/account/return-to';

const SHOP = 'https://shop.example';

/** What the page at /auth reads: URLSearchParams hands over the value already decoded. */
const received = (query: string) => new URLSearchParams(query).get('return_to');

/** Values that would take a signed-in visitor off the shop, each as the function receives it. */
const FOREIGN: Array<[string, string]> = [
  ['a tab between two slashes', '/\t/evil.example/phish'],
  ['a newline between two slashes', '/\n/evil.example'],
  ['a carriage return between two slashes', '/\r/evil.example'],
  ['a slash and a backslash', '/\\evil.example'],
  ['two backslashes', '\\\\evil.example'],
  ['a protocol-relative address', '//evil.example'],
  ['another site', 'https://evil.example'],
  ['another site in capitals', 'HTTPS://evil.example'],
  ['a script', 'javascript:alert(1)'],
  ['a data address', 'data:text/html,<script>alert(1)</script>'],
  ['this shop over plain http', 'http://shop.example/store'],
  ['this shop on another port', 'https://shop.example:8443/store'],
  ['a path that resolves to two slashes', '/.//evil.example'],
  ['a path that climbs back to two slashes', '/a/..//evil.example'],
  ['an encoded climb back to two slashes', '/a/%2e%2e//evil.example'],
];

describe('returnPath', () => {
  it('refuses every address that would leave the shop', () => {
    for (const [name, value] of FOREIGN) expect(returnPath(value, SHOP), name).toBeNull();
  });

  it('refuses the phishing link as it arrives at /auth (a tab, encoded as %09)', () => {
    expect(received('return_to=%2F%09%2Fevil.example%2Fphish')).toBe('/\t/evil.example/phish');
    expect(returnPath(received('return_to=%2F%09%2Fevil.example%2Fphish'), SHOP)).toBeNull();
  });

  it('keeps percent-encoded slashes as a path on the shop (a browser sent there stays on the shop)', () => {
    // `return_to=%2F%252F%2Fevil.example` arrives as `/%2F/evil.example`: one path, not a host.
    expect(received('return_to=%2F%252F%2Fevil.example')).toBe('/%2F/evil.example');
    expect(returnPath('/%2F/evil.example', SHOP)).toBe('/%2F/evil.example');
    expect(returnPath('%2F%2Fevil.example', SHOP)).toBe('/%2F%2Fevil.example');
    expect(returnPath('/%09/evil.example', SHOP)).toBe('/%09/evil.example');
    for (const value of ['/%2F/evil.example', '%2F%2Fevil.example', '/%09/evil.example']) {
      expect(new URL(returnPath(value, SHOP)!, SHOP).origin, value).toBe(SHOP);
    }
  });

  it('gives back the resolved path, not the value as it came', () => {
    expect(returnPath(' /book', SHOP)).toBe('/book');
    expect(returnPath('/store/./product/../product/book-1', SHOP)).toBe('/store/product/book-1');
    expect(returnPath('store', SHOP)).toBe('/store');
  });

  it('accepts an address on the shop itself, reduced to its path, query and fragment', () => {
    expect(returnPath('https://shop.example/store?q=a#top', SHOP)).toBe('/store?q=a#top');
    expect(returnPath('HTTPS://SHOP.EXAMPLE/book', SHOP)).toBe('/book');
  });

  it('keeps a page with its query and fragment', () => {
    expect(returnPath('/store?q=a#top', SHOP)).toBe('/store?q=a#top');
    expect(returnPath('/', SHOP)).toBe('/');
  });

  it('refuses the sign-in pages themselves, and nothing', () => {
    for (const value of ['/auth', '/auth?x', '/auth#top', '/auth/', '/auth/callback', 'https://shop.example/auth?return_to=/store']) {
      expect(returnPath(value, SHOP), value).toBeNull();
    }
    expect(returnPath('/authors', SHOP)).toBe('/authors');
    expect(returnPath('', SHOP)).toBeNull();
    expect(returnPath(null, SHOP)).toBeNull();
  });
});

describe('signInPath', () => {
  it('names the page to come back to, as its resolved path', () => {
    expect(signInPath('/store?q=a#top', SHOP)).toBe('/auth?return_to=%2Fstore%3Fq%3Da%23top');
    expect(new URL(signInPath('/store?q=a#top', SHOP), SHOP).searchParams.get('return_to')).toBe('/store?q=a#top');
  });

  it('names nothing for the home page, a sign-in page or an address off the shop', () => {
    for (const path of ['/', '/auth/callback', '//evil.example', '/\t/evil.example']) expect(signInPath(path, SHOP), path).toBe('/auth');
  });
});

describe('from /auth?return_to= across the provider’s redirect', () => {
  const storage = new Map<string, string>();
  beforeEach(() => {
    storage.clear();
    vi.stubGlobal('window', { location: { origin: SHOP } });
    vi.stubGlobal('sessionStorage', {
      getItem: (key: string) => storage.get(key) ?? null,
      setItem: (key: string, value: string) => void storage.set(key, value),
      removeItem: (key: string) => void storage.delete(key),
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  /** Where a visitor who opened /auth?<query> is sent once signed in, resolved as the browser resolves it. */
  function landing(query: string): string {
    rememberReturnPath(`?${query}`);
    return new URL(takeReturnPath(), SHOP).href;
  }

  it('sends the visitor home, on the shop, for every address that would leave it', () => {
    expect(landing('return_to=%2F%09%2Fevil.example%2Fphish')).toBe(`${SHOP}/`);
    for (const [name, value] of FOREIGN) expect(landing(new URLSearchParams({ return_to: value }).toString()), name).toBe(`${SHOP}/`);
  });

  it('brings the visitor back to the page named, once', () => {
    expect(landing('return_to=%2Fstore%3Fq%3Da%23top')).toBe(`${SHOP}/store?q=a#top`);
    expect(takeReturnPath()).toBe('/');
  });

  it('checks the remembered page again on the way out', () => {
    storage.set(STORAGE_KEYS.signInReturnTo, '/\t/evil.example');
    expect(takeReturnPath()).toBe('/');
  });
});
