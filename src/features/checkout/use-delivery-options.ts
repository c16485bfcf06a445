/**
 * The delivery options for the address and cart on the checkout page. They follow the address 500 ms after
 * it settles, and the cart: only a complete Australian address asks the carrier; abroad, the flat
 * international rate applies at once. A failed request falls back to the flat rate with its message.
 */
import { useEffect, useState } from 'react';
import { TIMINGS, type CountryCode } from '@/config/constants';
import type { CartLine } from '@/features/cart/cart';
import { useDebounced } from '@/lib/use-debounced';
import { fetchQuotes, lineProblemOf, type AddressFields, type LineProblem, type ShippingQuote } from './api';
import { applyFreeShipping, CHECKOUT_MESSAGES, fallbackQuotes } from './contract';
import { wantsLiveQuotes } from './validation';

/** `offeredAgain`: the server refused the option paid for and sent these instead; the shopper chooses again. */
export type DeliveryOptions = { status: 'idle' | 'loading' } | { status: 'ready'; quotes: ShippingQuote[]; message?: string; offeredAgain?: boolean; lineProblem?: LineProblem };

/** `goods`: the cart's value after a promotion code (`promotionCode`, sent to the server too), which free shipping is judged on. */
export function useDeliveryOptions(address: AddressFields, lines: readonly CartLine[], goods: number, enabled: boolean, promotionCode?: string) {
  const [state, setState] = useState<DeliveryOptions>({ status: 'idle' });
  const [methodId, setMethodId] = useState<string | null>(null);
  const flatRate = (country: CountryCode) => applyFreeShipping(fallbackQuotes(country), { country, subtotal: goods });

  const settled = useDebounced(address, TIMINGS.shippingQuoteDebounceMs);
  // A changed address makes the shown options stale at once, so no old choice is paid for.
  useEffect(() => {
    if (address.country === 'AU' && wantsLiveQuotes(address)) setState({ status: 'loading' });
  }, [address.addressLine1, address.city, address.state, address.postalCode, address.country]);

  const cartKey = lines.map((l) => `${l.product.id}:${l.quantity}`).join(',');
  useEffect(() => {
    if (!enabled || lines.length === 0) return setState({ status: 'idle' });
    if (settled.country !== 'AU') return setState({ status: 'ready', quotes: flatRate(settled.country as CountryCode) });
    if (!wantsLiveQuotes(settled)) return setState({ status: 'idle' });
    let current = true;
    setState({ status: 'loading' });
    fetchQuotes(settled, lines, promotionCode).then(
      (r) => current && setState({ status: 'ready', quotes: r.quotes, message: r.fallback ? r.message : undefined }),
      (error: Error) => {
        if (!current) return;
        // Too few copies of a line: said beside that line (the summary), not here; the flat rate stands meanwhile.
        const lineProblem = lineProblemOf(error);
        setState(lineProblem ? { status: 'ready', quotes: flatRate('AU'), lineProblem } : { status: 'ready', quotes: flatRate('AU'), message: error.message || CHECKOUT_MESSAGES.ratesFailed });
      },
    );
    return () => {
      current = false;
    };
  }, [enabled, settled, cartKey, promotionCode, goods]);

  const options = state.status === 'ready' ? state.quotes : [];
  // A choice that is no longer offered is dropped; until the shopper picks one, the cheapest is chosen for them
  // (the first of equals, as the carrier lists them), so Express is always a choice, never a default. Options
  // the server offered again after refusing a choice are for the shopper to choose from.
  const offeredAgain = state.status === 'ready' && state.offeredAgain === true;
  useEffect(() => {
    if (!options.some((q) => q.id === methodId)) setMethodId(offeredAgain ? null : (cheapest(options)?.id ?? null));
  }, [options.map((q) => q.id).join()]);

  return {
    state,
    options,
    method: options.find((q) => q.id === methodId) ?? null,
    choose: setMethodId,
    /** The server's current options, when the ones shown have changed since (answered with a refused checkout). */
    offerAgain: (quotes: ShippingQuote[], message?: string) => setState({ status: 'ready', quotes, message, offeredAgain: true }),
  };
}

function cheapest(options: readonly ShippingQuote[]): ShippingQuote | undefined {
  return options.reduce<ShippingQuote | undefined>((best, q) => (best === undefined || q.price < best.price ? q : best), undefined);
}
