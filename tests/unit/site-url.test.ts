import { describe, expect, it } from 'vitest';
import { siteUrl } from '../../src/config/site-url';
import { builtFor } from '../../local/build-if-needed';

describe('the site’s own address', () => {
  it('follows the port the local shop serves on, so its sitemap never names another', () => {
    expect(siteUrl({})).toBe('http://localhost:4321');
    expect(siteUrl({ PORT: '8080' })).toBe('http://localhost:8080');
    expect(siteUrl({ PORT: '8080', URL: 'https://shop.example' })).toBe('https://shop.example');
    expect(siteUrl({ SITE_URL: 'https://www.example', URL: 'https://shop.example' })).toBe('https://www.example');
  });
  it('a build made for one port is rebuilt for another: its stamp says which address it was built for', () => {
    expect(builtFor('2026-11-28T05:00:00.000Z\nhttp://localhost:8080\n')).toBe('http://localhost:8080');
    // `npm run build` writes the date alone: built for the default address.
    expect(builtFor('2026-11-28T05:00:00.000Z')).toBe('http://localhost:4321');
  });
});
