/** Asking the `client:intent` islands (intent.ts) to hydrate before the visitor reaches for them. */
export const HYDRATE_EVENT = 'shop:hydrate';

export const hydrateIntentIslands = () => window.dispatchEvent(new Event(HYDRATE_EVENT));
