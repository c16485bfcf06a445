/**
 * The back office's address: `#<section>[?<params>]`, e.g. `#orders?view=all&q=ann&after=<cursor>`. A list keeps
 * its view, its search and the pages loaded in the params, so Back and a reload show the same rows.
 */
import { useEffect, useEffectEvent, useLayoutEffect, useRef, useState } from 'react';
import { useDebounced } from '@/lib/use-debounced';

export interface Route {
  path: string;
  params: URLSearchParams;
}

export function parseHash(hash: string): Route {
  const [path = '', query = ''] = hash.replace(/^#/, '').split(/\?(.*)/s);
  return { path, params: new URLSearchParams(query) };
}

function hashOf(path: string, params: URLSearchParams): string {
  const query = params.toString();
  return `#${path}${query ? `?${query}` : ''}`;
}

/**
 * Shows `path?params`: a new history entry, or with `replace` the same one (a search refined, a page loaded), so Back
 * leaves the list rather than undoing each page. The panels read the address, so they hear of it as of a link.
 */
export function goTo(path: string, params: URLSearchParams, { replace = false } = {}): void {
  const hash = hashOf(path, params);
  if (hash === window.location.hash) return;
  if (replace) window.history.replaceState(window.history.state, '', hash);
  else window.history.pushState(null, '', hash);
  window.dispatchEvent(new HashChangeEvent('hashchange'));
}

type Changes = Record<string, string | readonly string[] | null>;

/** The params with `changes` applied: a null drops the key, an array sets one value per item. */
export function withParams(params: URLSearchParams, changes: Changes): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const [key, value] of Object.entries(changes)) {
    next.delete(key);
    if (typeof value === 'string') next.set(key, value);
    else if (value) for (const item of value) next.append(key, item);
  }
  return next;
}

/**
 * The list's params as the address holds them now. The address may be ahead of the list as drawn: a search written,
 * or a view chosen, a moment before the list is drawn again.
 */
function paramsNow(path: string, drawn: URLSearchParams): URLSearchParams {
  const now = parseHash(window.location.hash);
  return now.path === path ? now.params : drawn;
}

/**
 * Shows the list at `path` with `changes` made to its params as the address holds them now (`drawn`, the params it
 * was drawn for, when the address is elsewhere), so a view chosen keeps a search written a moment before, and the
 * other way round. `changes` may be worked out from those params (`now`), as a page loaded is added to the pages there.
 */
export function changeParams(path: string, drawn: URLSearchParams, changes: Changes | ((now: URLSearchParams) => Changes), options: { replace?: boolean } = {}): void {
  const now = paramsNow(path, drawn);
  goTo(path, withParams(now, typeof changes === 'function' ? changes(now) : changes), options);
}

/** A search typed in a list's box, written to the address (`q`) once typing pauses; Back puts the old one back. */
export function useSearchParam(path: string, params: URLSearchParams): [string, (text: string) => void] {
  const query = params.get('q') ?? '';
  const [search, setSearch] = useState(query);
  // Only typing writes, once it pauses. Each keystroke is a value of its own, so the same words typed again after
  // Back emptied the box are written again; the box filled from the address writes nothing.
  const [typing, setTyping] = useState<{ text: string } | null>(null);
  const typed = useDebounced(typing, 250);
  // A new search starts again from the first page. Once the address has left this list (an order opened while the
  // typing paused), the search is dropped: writing it would take them back to the list. A view chosen meanwhile is
  // kept (changeParams). The orders list is drawn at a bare `#` too, so the path it was drawn at counts as the list.
  const drawnAt = parseHash(window.location.hash).path;
  const searchFor = useEffectEvent((text: string) => {
    const now = parseHash(window.location.hash).path;
    if (now !== path && now !== drawnAt) return;
    const current = paramsNow(path, params);
    // A search started is a history entry of its own, so Back returns to the list before it; refining it is not.
    if (text !== (current.get('q') ?? '')) goTo(path, withParams(current, { q: text || null, after: null }), { replace: current.has('q') });
  });
  useEffect(() => {
    if (typed) searchFor(typed.text.trim());
  }, [typed]);
  // Back or a link changed the search in the address: the box shows it.
  const showSearch = useEffectEvent((text: string) => {
    if (search.trim() !== text) setSearch(text);
  });
  useEffect(() => showSearch(query), [query]);
  const type = (text: string) => {
    setSearch(text);
    setTyping({ text });
  };
  return [search, type];
}

/**
 * Where the list was scrolled to, kept in its history entry: a list loads its pages after Back or a reload, too
 * late for the browser's own restoring, so once `ready` (every page in the address drawn, in the same render) it
 * scrolls back there.
 */
export function useKeptScroll(ready: boolean): void {
  const restored = useRef(false);
  useEffect(() => {
    let timer = 0;
    // Written once scrolling pauses (browsers limit how often an entry may be rewritten), and only once the list is
    // back where it was: the page shrinking while it loads scrolls it too.
    const save = () => {
      window.clearTimeout(timer);
      if (!restored.current) return;
      timer = window.setTimeout(() => window.history.replaceState({ ...window.history.state, adminScroll: window.scrollY }, ''), 100);
    };
    window.addEventListener('scroll', save, { passive: true });
    return () => {
      window.removeEventListener('scroll', save);
      window.clearTimeout(timer);
    };
  }, []);
  // A layout effect: it runs once the commit that draws the rows has put them in the document, whichever component
  // holds the hook, and scrolls before the frame is painted and before any passive effect (the panel's own among
  // them, which run after a child's) or browser task can move the page; a passive one ran after those.
  useLayoutEffect(() => {
    if (!ready || restored.current) return;
    restored.current = true;
    const y: unknown = window.history.state?.adminScroll;
    if (typeof y === 'number' && y > 0) window.scrollTo(0, y);
  }, [ready]);
}
