/**
 * The delivery options for the address and cart on the checkout page. They follow the address 500 ms after
 * it settles, and the cart: a complete Australian address, or any country abroad (priced by the country and the
 * parcel's weight alone), asks the server, which asks the carrier. A failed request falls back to the rate card
 * (abroad, for the cart's weight) with its message.
 */
import { useEffect, useEffectEvent, useMemo, useState } from 'react';
import { TIMINGS, type CountryCode } from '@/config/constants';
import type { CartLine } from '@/features/cart/cart';
import { useDebounced } from '@/lib/use-debounced';
import { useSameWhile } from '@/lib/use-same-while';
import { fetchQuotes, lineProblemOf, type AddressFields, type LineProblem, type ShippingQuote } from './api';
import { applyFreeShipping, CHECKOUT_MESSAGES } from './contract';
import { wantsLiveQuotes } from './validation';

/** `offeredAgain`: the server refused the option paid for and sent these instead; the shopper chooses again. */
export type DeliveryOptions = { status: 'idle' | 'loading' } | { status: 'ready'; quotes: ShippingQuote[]; message?: string; offeredAgain?: boolean; lineProblem?: LineProblem };

/** `goods`: the cart's value after a promotion code (`promotionCode`, sent to the server too), which free shipping is judged on. */
export function useDeliveryOptions(address: AddressFields, lines: readonly CartLine[], goods: number, enabled: boolean, promotionCode?: string) {
  const [state, setState] = useState<DeliveryOptions>({ status: 'idle' });
  const [methodId, setMethodId] = useState<string | null>(null);

  // Only the parts of the address the rates are asked with: a name or a phone typed leaves the options as they are.
  // Abroad only the country prices the parcel, so typing the rest of the address asks nothing again.
  const { addressLine1, addressLine2, city, state: region, postalCode, country } = address;
  const priced = useMemo<AddressFields>(
    () =>
      country === 'AU'
        ? { fullName: '', phone: '', addressLine1, addressLine2, city, state: region, postalCode, country }
        : { fullName: '', phone: '', addressLine1: '', addressLine2: '', city: '', state: '', postalCode: '', country },
    [addressLine1, addressLine2, city, region, postalCode, country],
  );
  const settled = useDebounced(priced, TIMINGS.shippingQuoteDebounceMs);
  // A changed address makes the shown options stale at once, so no old choice is paid for.
  useEffect(() => {
    if (wantsLiveQuotes(priced)) setState({ status: 'loading' });
  }, [priced]);

  const cart = useSameWhile(lines, lines.map((l) => `${l.product.id}:${l.quantity}`).join(','));
  useEffect(() => {
    if (!enabled || cart.length === 0) return setState({ status: 'idle' });
    if (!wantsLiveQuotes(settled)) return setState({ status: 'idle' });
    let current = true;
    setState({ status: 'loading' });
    fetchQuotes(settled, cart, promotionCode).then(
      (r) => current && setState({ status: 'ready', quotes: r.quotes, message: r.fallback ? r.message : undefined }),
      async (error: Error) => {
        if (!current) return;
        // Too few copies of a line: said beside that line (the summary), not here; the rate card stands meanwhile.
        const lineProblem = lineProblemOf(error);
        const quotes = await flatRate(settled.country as CountryCode, goods, cartWeight(cart));
        if (!current) return;
        setState(lineProblem ? { status: 'ready', quotes, lineProblem } : { status: 'ready', quotes, message: error.message || CHECKOUT_MESSAGES.ratesFailed });
      },
    );
    return () => {
      current = false;
    };
  }, [enabled, settled, cart, promotionCode, goods]);

  const options = state.status === 'ready' ? state.quotes : [];
  // A choice that is no longer offered is dropped; until the shopper picks one, the cheapest is chosen for them
  // (the first of equals, as the carrier lists them), so Express is always a choice, never a default. Options
  // the server offered again after refusing a choice are for the shopper to choose from.
  const offeredAgain = state.status === 'ready' && state.offeredAgain === true;
  const offered = useSameWhile(options, options.map((q) => q.id).join());
  const chooseFrom = useEffectEvent((quotes: readonly ShippingQuote[]) => {
    if (!quotes.some((q) => q.id === methodId)) setMethodId(offeredAgain ? null : (cheapest(quotes)?.id ?? null));
  });
  useEffect(() => chooseFrom(offered), [offered]);

  return {
    state,
    options,
    method: options.find((q) => q.id === methodId) ?? null,
    choose: setMethodId,
    /** The server's current options, when the ones shown have changed since (answered with a refused checkout). */
    offerAgain: (quotes: ShippingQuote[], message?: string) => setState({ status: 'ready', quotes, message, offeredAgain: true }),
  };
}

/**
 * The rate card to a country (abroad, for the parcel's grams), free over the threshold of the goods' value. Loaded
 * only when the server's prices cannot be had: the international card is no part of the page's first download.
 */
async function flatRate(country: CountryCode, goods: number, weightGrams: number) {
  const { fallbackQuotes } = await import('./fallback-quotes');
  return applyFreeShipping(fallbackQuotes(country, weightGrams), { country, subtotal: goods });
}

/** The cart's weight in grams, as the server weighs it (each copy's weight × its quantity). */
const cartWeight = (lines: readonly CartLine[]) => lines.reduce((grams, line) => grams + (line.product.weight > 0 ? line.product.weight * line.quantity : 0), 0);

function cheapest(options: readonly ShippingQuote[]): ShippingQuote | undefined {
  return options.reduce<ShippingQuote | undefined>((best, q) => (best === undefined || q.price < best.price ? q : best), undefined);
}
