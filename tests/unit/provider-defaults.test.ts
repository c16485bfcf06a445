/**
 * Every side service has a provider, configured or not: with no variables set, each capability gets its local
 * default (the flat rate card, manual address entry, no bot-check), and the payment mode is the chosen provider's.
 */
import { describe, expect, it } from 'vitest';
import { readServerEnv } from '@/config/env';
import { fallbackQuotes } from '@/features/checkout/fallback-quotes';
import { ProviderError } from '../../functions/_lib/providers/errors';
import { selectAddressLookup, selectHumanCheck, selectShippingRates, testPaymentsInUse } from '../../functions/_lib/providers/select';

const LOCAL = readServerEnv({ SHOP_LOCAL_SERVER: '1', SUPABASE_URL: 'http://localhost:1', SUPABASE_SERVICE_ROLE_KEY: 'k' });

describe('local default providers', () => {
  it('shipping: the flat rate card for every country, named as such', async () => {
    const rates = selectShippingRates(LOCAL);
    expect(rates.name).toBe('flat-rate');
    const parcel = { fromPostcode: '2170', toPostcode: '3000', weightGrams: 300, lengthCm: 21.6, widthCm: 21.6, heightCm: 0.6 };
    expect(await rates.quote({ ...parcel, country: 'AU' })).toEqual(fallbackQuotes('AU'));
    expect(await rates.quote({ ...parcel, country: 'GB' })).toEqual(fallbackQuotes('GB', 300));
    expect(selectShippingRates(readServerEnv({ AUSPOST_API_KEY: 'key' })).name).not.toBe('flat-rate');
  });

  it('address lookup: manual entry suggests nothing and refuses details as unsupported', async () => {
    const lookup = selectAddressLookup(LOCAL);
    expect(lookup.name).toBe('manual-entry');
    expect(await lookup.suggest('1 Church Street', 'AU', 'token')).toEqual([]);
    const refusal = await lookup.details('place', 'token').catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(ProviderError);
    expect((refusal as ProviderError).code).toBe('unsupported');
  });

  it('bot-check: off, says it does not verify, and passes every token', async () => {
    const check = selectHumanCheck(LOCAL);
    expect(check.verifies).toBe(false);
    expect(await check.verify('', { action: 'contact_form', hostname: 'localhost' })).toEqual({ ok: true });
    expect(selectHumanCheck(readServerEnv({ TURNSTILE_SECRET_KEY: 'secret' })).verifies).toBe(true);
  });

  it('the TEST payment page is in use only where the chosen payment provider is the local one', () => {
    expect(testPaymentsInUse(LOCAL)).toBe(true);
    expect(testPaymentsInUse(readServerEnv({ ...LOCAL, STRIPE_SECRET_KEY: 'sk_test_x' }))).toBe(false);
    expect(testPaymentsInUse(readServerEnv({ ...LOCAL, SITE_ID: 'site' }))).toBe(false);
  });
});
