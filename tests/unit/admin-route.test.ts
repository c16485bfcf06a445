/** The back office's address: a section, then a list's view, search and the pages it has loaded. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { keepNextPage } from '@/features/admin/ListControls';
import { parseHash, withParams } from '@/features/admin/route';

/** A window whose address is `hash`, as much of one as the address's writers use; the location is returned to read. */
function addressAt(hash: string): { hash: string } {
  const location = { hash };
  const write = (_state: unknown, _title: string, next: string) => {
    location.hash = next;
  };
  vi.stubGlobal('HashChangeEvent', class extends Event {});
  vi.stubGlobal('window', { location, history: { state: null, replaceState: write, pushState: write }, dispatchEvent: () => true });
  return location;
}

describe('the back office address', () => {
  it('splits the section from its params', () => {
    const { path, params } = parseHash('#orders?view=all&q=ann%40example.com&after=2019-06-01T01%3A00%3A00.000000Z%7Cabc&after=x');
    expect(path).toBe('orders');
    expect(params.get('view')).toBe('all');
    expect(params.get('q')).toBe('ann@example.com');
    expect(params.getAll('after')).toEqual(['2019-06-01T01:00:00.000000Z|abc', 'x']);
  });

  it('a section without params, an order and a customer keep their paths', () => {
    expect(parseHash('#sales').path).toBe('sales');
    expect(parseHash('').path).toBe('');
    expect(parseHash('#order/6d14b5b4-37da-4c00-ac24-d7609e8ef608').path).toBe('order/6d14b5b4-37da-4c00-ac24-d7609e8ef608');
    expect(parseHash(`#customer/${encodeURIComponent('a?b@example.com')}`).path).toBe('customer/a%3Fb%40example.com');
  });

  it('changes params: a value set, a list appended, a null dropped, the rest kept', () => {
    const params = new URLSearchParams('view=all&q=ann&after=a');
    expect(withParams(params, { after: ['a', 'b'] }).toString()).toBe('view=all&q=ann&after=a&after=b');
    expect(withParams(params, { q: 'bob', after: null }).toString()).toBe('view=all&q=bob');
    expect(withParams(params, { view: null }).toString()).toBe('q=ann&after=a');
    expect(params.toString()).toBe('view=all&q=ann&after=a');
  });
});

describe('Load more', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('adds the next page to the pages the address holds now, not those the list was drawn with, and a page once', () => {
    // Drawn with one page; the address already holds a second (pressed a moment before the list was drawn again) and a search.
    const location = addressAt('#orders?q=ann&after=a&after=b');
    const more = keepNextPage('orders', new URLSearchParams('after=a'));
    more('b');
    expect(location.hash).toBe('#orders?q=ann&after=a&after=b');
    more('c');
    expect(location.hash).toBe('#orders?q=ann&after=a&after=b&after=c');
  });
});
