/**
 * `client:intent`, for the store grid: the island hydrates when the visitor reaches for what needs React (the
 * search: a pointer over it, a touch, focus, a key) or when the page asks (`hydrateIntentIslands`: a search in
 * the address, a book added since the build; signals.ts). Never at load: React is the largest script of the site, and at
 * load or at idle its start-up is the page's longest task on a phone. Nothing has to be handed over: the
 * purchase buttons and links work without React, so reaching for them starts nothing, and the grid reads
 * whatever was typed into its search box when it starts.
 */
import type { ClientDirective } from 'astro';
import { HYDRATE_EVENT } from './signals';

const INTENT_EVENTS = ['pointerover', 'touchstart', 'focusin', 'keydown'] as const;
/** What works without the island: intent towards these starts nothing. */
const WITHOUT_REACT = '[data-purchase], a[href]';

const intent: ClientDirective = (load, _options, island) => {
  let started = false;
  const start = async () => {
    if (started) return;
    started = true;
    for (const type of INTENT_EVENTS) island.removeEventListener(type, onIntent, true);
    window.removeEventListener(HYDRATE_EVENT, start);
    await (await load())();
  };
  const onIntent = (event: Event) => {
    if (!(event.target instanceof Element && event.target.closest(WITHOUT_REACT))) void start();
  };
  for (const type of INTENT_EVENTS) island.addEventListener(type, onIntent, { capture: true, passive: true });
  window.addEventListener(HYDRATE_EVENT, start);
};

export default intent;
