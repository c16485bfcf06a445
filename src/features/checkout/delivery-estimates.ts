/**
 * How long an order takes to arrive, as the publisher states it in content/shipping/delivery-estimates.json:
 * the one source of the ranges the checkout, the confirmation page and the confirmation email show. The file is
 * JSON so that the page (Vite) and the functions (esbuild) both import it as it is; the build checks it
 * (the `deliveryEstimates` collection in src/content.config.ts) and so does deliveryEstimatesSchema's test.
 */
// Relative imports only: the functions import this file too.
import { SHIPPING } from '../../config/constants';
// The attribute lets Node load the file as it is (Playwright, the local server); Vite and esbuild accept it too.
import estimates from '../../../content/shipping/delivery-estimates.json' with { type: 'json' };

export type BusinessDays = readonly [number, number];
export type DeliveryService = 'standard' | 'express';

/** The file's shape: every destination one range per service (Express abroad is faster than Standard too). */
type ServiceDays = Record<DeliveryService, BusinessDays>;
interface DeliveryEstimates {
  australia: ServiceDays;
  unitedStates: ServiceDays;
  unitedKingdom: ServiceDays;
  canada: ServiceDays;
  newZealand: ServiceDays;
  ireland: ServiceDays;
  restOfWorld: ServiceDays;
}

/** Which group of the file a country's range comes from (ISO 3166-1 alpha-2). */
const GROUP_OF: Record<string, Exclude<keyof DeliveryEstimates, 'australia'>> = {
  US: 'unitedStates',
  GB: 'unitedKingdom',
  CA: 'canada',
  NZ: 'newZealand',
  IE: 'ireland',
};

const ESTIMATES = estimates as unknown as DeliveryEstimates;

/** A range as the shop words it: "3-7 business days". */
const businessDaysText = ([min, max]: BusinessDays) => (min === max ? `${min} business day${min === 1 ? '' : 's'}` : `${min}-${max} business days`);

/** The stated range for a country and a service. */
function deliveryDays(country: string, service: DeliveryService = 'standard', table: DeliveryEstimates = ESTIMATES): BusinessDays {
  const code = country.toUpperCase();
  return (code === 'AU' ? table.australia : table[GROUP_OF[code] ?? 'restOfWorld'])[service];
}

export const deliveryEstimate = (country: string, service: DeliveryService = 'standard') => businessDaysText(deliveryDays(country, service));

/** An express service's id: the rate card's (`au-express`, `international-express`) or Australia Post's (`INT_PARCEL_EXP_…`, `AUS_PARCEL_EXPRESS…`). */
const isExpressMethod = (id: string | null | undefined) => id === SHIPPING.fallback.express.id || /EXP/i.test(id ?? '');

/** What orders placed before the ranges were stated carry for an overseas parcel, in place of an estimate. */
const UNSTATED = 'Confirmed by the seller after purchase';

/**
 * The estimate an order shows (confirmation page and email): the one the buyer chose at checkout, or the
 * stated range for its country when it carries none (or only the old "confirmed after purchase" words).
 */
export function orderDeliveryEstimate(order: {
  /** As the order's stored address holds it. */
  country?: unknown;
  methodId?: string | null | undefined;
  estimatedDelivery?: string | null | undefined;
}): string {
  const stored = order.estimatedDelivery?.trim();
  if (stored && stored !== UNSTATED) return stored;
  return deliveryEstimate(typeof order.country === 'string' && order.country ? order.country : 'AU', isExpressMethod(order.methodId) ? 'express' : 'standard');
}
