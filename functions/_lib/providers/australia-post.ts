/**
 * Australia Post Postage Assessment Calculator (PAC): the retail parcel prices for one parcel, key in the AUTH-KEY
 * header. The answer is XML turned into JSON, so a list of one arrives as a bare object.
 * - Domestic: GET {base}/postage/parcel/domestic/service.json?from_postcode&to_postcode&length&width&height (cm)&weight (kg)
 * - International: GET {base}/postage/parcel/international/service.json?country_code (ISO alpha-2)&weight (kg, at
 *   most 20), answering the same `{ services: { service: [{ code, name, price, max_extra_cover, options }] } }`;
 *   the shop offers its International Standard (INT_PARCEL_STD_OWN_PACKAGING) and Express
 *   (INT_PARCEL_EXP_OWN_PACKAGING). https://developers.auspost.com.au/apis/pac/reference/international-parcel-services
 *   and https://developers.auspost.com.au/apis/pac/tutorial/international-parcel
 * A heavier order goes as several parcels of at most 20 kg, each priced and added up.
 */
import { z } from 'zod';
import { deliveryEstimate, type DeliveryService } from '../../../src/features/checkout/delivery-estimates';
import { ProviderError } from './errors';
import { type HttpOptions, requestProvider } from './transport';
import { carrierPrice, type ParcelRequest, type SatchelSize, type ShippingQuote, type ShippingRatesProvider } from './shipping-rates';
import { parcelWeights } from '../../../src/lib/international-rates';

const NAME = 'australia-post';
const CARRIER = 'Australia Post';

export interface AustraliaPostOptions extends HttpOptions {
  apiKey: string;
}

/** PAC turns `<service>` lists into an array, but a single entry into an object. */
function listOf<T extends z.ZodType>(item: T) {
  return z.union([z.array(item), item.transform((one) => [one])]);
}

const serviceSchema = z.object({
  code: z.string().min(1),
  name: z.string().min(1),
  price: carrierPrice,
  max_extra_cover: z.unknown().optional(),
  options: z.unknown().optional(),
  // Documented on calculate.json's postage_result; read here too in case a service carries it.
  delivery_time: z.string().optional(),
});

const serviceListSchema = z.object({
  // No services at all comes back as an empty string or an object without `service`.
  services: z.union([z.object({ service: listOf(serviceSchema).optional() }), z.literal('')]),
});

/** PAC's own error body, and the API gateway's. */
const errorSchema = z.union([
  z.object({ error: z.object({ errorMessage: z.string() }) }).transform((e) => e.error.errorMessage),
  z.object({ errors: z.array(z.object({ message: z.string() })).min(1) }).transform((e) => e.errors.map((x) => x.message).join('; ')),
]);

type PacService = z.infer<typeof serviceSchema>;

/**
 * Satchel size from the service code or name. Current codes end in _SMALL/_MEDIUM/_LARGE/_EXTRA_LARGE;
 * older ones name a weight (_500G, _1KG, _3KG, _5KG), where the name ("Small-Medium satchel") says more.
 */
function satchelOf(service: PacService): { isSatchel: boolean; size: SatchelSize | null } {
  const code = service.code.toUpperCase();
  const name = service.name.toLowerCase();
  if (!code.includes('SATCHEL') && !name.includes('satchel')) return { isSatchel: false, size: null };
  const bySuffix = /SATCHEL_(EXTRA_LARGE|LARGE|MEDIUM|SMALL)\b/.exec(code)?.[1];
  if (bySuffix) return { isSatchel: true, size: bySuffix.toLowerCase() as SatchelSize };
  if (/extra[\s-]*large/.test(name)) return { isSatchel: true, size: 'extra_large' };
  if (name.includes('large')) return { isSatchel: true, size: 'large' };
  if (name.includes('medium')) return { isSatchel: true, size: 'medium' };
  if (name.includes('small')) return { isSatchel: true, size: 'small' };
  const byWeight: Record<string, SatchelSize> = { '500G': 'small', '1KG': 'small', '3KG': 'medium', '5KG': 'large' };
  const weight = /SATCHEL_(\d+K?G)\b/.exec(code)?.[1];
  return { isSatchel: true, size: (weight && byWeight[weight]) || null };
}

/** "Delivered in 2-4 business days" → "2-4 business days"; "Delivered next business day" → "1 business day". */
function etaFromDeliveryTime(text: string | undefined, service: DeliveryService = 'standard'): string {
  const value = (text ?? '').trim();
  // No time stated: the publisher's own range for the service.
  if (!value) return deliveryEstimate('AU', service);
  const range = /(\d+)\s*(?:-|–|to)\s*(\d+)\s*business days?/i.exec(value);
  if (range) return `${range[1]}-${range[2]} business days`;
  const single = /(\d+)\s*business days?/i.exec(value);
  if (single) return single[1] === '1' ? '1 business day' : `${single[1]} business days`;
  if (/next business day/i.test(value)) return '1 business day';
  return value.replace(/^delivered\s+(in\s+)?/i, '').trim() || deliveryEstimate('AU', service);
}

/** Satchel names ("Small satchel") don't say which service they belong to; the code does. */
function planNameOf(service: PacService, isSatchel: boolean): string {
  if (!isSatchel || /post/i.test(service.name)) return service.name;
  const code = service.code.toUpperCase();
  const family = code.includes('EXPRESS') ? 'Express Post' : code.includes('COURIER') ? 'Courier Post' : code.includes('REGULAR') ? 'Parcel Post' : '';
  return family ? `${family} ${service.name}` : service.name;
}

function toQuote(service: PacService): ShippingQuote {
  const satchel = satchelOf(service);
  // Express Post and Courier Post are the faster services; Parcel Post is the standard one.
  const speed = /EXPRESS|COURIER/i.test(service.code) ? 'express' : 'standard';
  return {
    id: service.code,
    plan_name: planNameOf(service, satchel.isSatchel),
    carrier: CARRIER,
    is_satchel: satchel.isSatchel,
    satchel_size: satchel.size,
    service: speed,
    price: Math.round(service.price * 100) / 100,
    eta: { days_range: etaFromDeliveryTime(service.delivery_time, speed), date_range: '' },
  };
}

/** Australia Post's international parcel services the shop offers, by PAC code. */
const INTERNATIONAL_CODES: Record<string, { name: string; service: DeliveryService }> = {
  INT_PARCEL_STD_OWN_PACKAGING: { name: 'International Standard', service: 'standard' },
  INT_PARCEL_EXP_OWN_PACKAGING: { name: 'International Express', service: 'express' },
};

/** PAC's limit for one international parcel. */
const INTERNATIONAL_MAX_GRAMS = 20_000;

/** Kilograms to the gram, as PAC takes them. */
const kg = (grams: number) => String(Math.round(grams) / 1000);

/** Centimetres with one decimal, never below 1: a flat item still has a packaging thickness. */
function cm(value: number): string {
  return String(Math.max(1, Math.round(value * 10) / 10));
}

export function createAustraliaPostRates(options: AustraliaPostOptions): ShippingRatesProvider {
  const { apiKey, baseUrl = 'https://digitalapi.auspost.com.au', fetch: fetchImpl = globalThis.fetch, timeoutMs = 8000 } = options;

  /** One PAC service list; any refusal or a body that is not one is a ProviderError. */
  async function services(path: string, query: URLSearchParams): Promise<PacService[]> {
    const response = await requestProvider(NAME, fetchImpl, `${baseUrl.replace(/\/$/, '')}${path}?${query}`, { method: 'GET', headers: { 'AUTH-KEY': apiKey, accept: 'application/json' } }, timeoutMs);

    const error = errorSchema.safeParse(response.body);
    if (!response.ok || error.success) {
      const status = response.ok ? 400 : response.status;
      const message = error.success ? error.data : `HTTP ${response.status}`;
      // PAC's validation texts ("Please enter a valid To postcode.") help the shopper; key and server errors do not.
      const forShopper = error.success && status >= 400 && status < 500 && status !== 401 && status !== 403 && status !== 429;
      throw new ProviderError(NAME, status, `Australia Post refused the quote (${status}): ${message}`, forShopper ? { userMessage: message } : {});
    }

    const parsed = serviceListSchema.safeParse(response.body);
    if (!parsed.success) {
      throw new ProviderError(NAME, 502, 'Australia Post answered something that is not a service list.', { code: 'invalid-response', cause: parsed.error });
    }
    return parsed.data.services === '' ? [] : (parsed.data.services.service ?? []);
  }

  /**
   * International Standard and Express for the order's weight: each parcel of at most 20 kg priced by PAC, the
   * prices added up per service. A service missing for one of the parcels is not offered.
   */
  async function international(request: ParcelRequest): Promise<ShippingQuote[]> {
    const parcels = parcelWeights(request.weightGrams, INTERNATIONAL_MAX_GRAMS);
    const weights = [...new Set(parcels)];
    const answers = new Map<number, PacService[]>();
    // One request per distinct weight (a 30 kg order is one 20 kg and one 10 kg parcel: two requests).
    for (const grams of weights) {
      answers.set(grams, await services('/postage/parcel/international/service.json', new URLSearchParams({ country_code: request.country, weight: kg(grams) })));
    }
    return Object.entries(INTERNATIONAL_CODES).flatMap(([code, offer]) => {
      let cents = 0;
      let deliveryTime: string | undefined;
      for (const grams of parcels) {
        const found = answers.get(grams)?.find((service) => service.code.toUpperCase() === code);
        if (!found) return [];
        cents += Math.round(found.price * 100);
        deliveryTime ??= found.delivery_time?.trim() || undefined;
      }
      const quote: ShippingQuote = {
        id: code,
        plan_name: offer.name,
        carrier: CARRIER,
        is_satchel: false,
        satchel_size: null,
        service: offer.service,
        price: cents / 100,
        // Only a time Australia Post states; without one the shop's rules put the publisher's range for the country.
        eta: { days_range: deliveryTime ? etaFromDeliveryTime(deliveryTime, offer.service) : '', date_range: '' },
      };
      return [quote];
    });
  }

  return {
    name: NAME,
    async quote(request: ParcelRequest): Promise<ShippingQuote[]> {
      if (!(request.weightGrams > 0)) {
        throw new ProviderError(NAME, 400, 'The parcel has no weight, so Australia Post cannot price it.', { code: 'unsupported' });
      }
      if (request.country !== 'AU') return international(request);
      if (!/^\d{4}$/.test(request.toPostcode.trim()) || !/^\d{4}$/.test(request.fromPostcode.trim())) {
        throw new ProviderError(NAME, 400, `Not an Australian postcode pair: ${request.fromPostcode} → ${request.toPostcode}.`, {
          code: 'unsupported',
          userMessage: 'Please enter a valid Australian postcode.',
        });
      }

      const query = new URLSearchParams({
        from_postcode: request.fromPostcode.trim(),
        to_postcode: request.toPostcode.trim(),
        length: cm(request.lengthCm),
        width: cm(request.widthCm),
        height: cm(request.heightCm),
        // PAC takes kilograms; grams → kg to the gram.
        weight: kg(request.weightGrams),
      });
      return (await services('/postage/parcel/domestic/service.json', query)).map(toQuote);
    },
  };
}
