/**
 * Australia Post's Postage Assessment Calculator key: one small domestic parcel quote, as the shop asks it
 * (GET {api}/postage/parcel/domestic/service.json, key in AUTH-KEY), and one international one to the US
 * (GET {api}/postage/parcel/international/service.json?country_code&weight). 200 with services: the key works;
 * 401/403: the key is refused and every checkout falls back to the rate card.
 */
import { SHIPPING } from '../../../src/config/constants';
import type { CheckResult, DoctorContext } from '../types';
import { errorMessage, isCheckResult, listOf, reach, skip } from './common';
import { OPTIONAL_VARIABLES } from './variables';

const NAME = 'Australia Post rates';

/** A board book in a small box, from the shop's postcode to Melbourne. */
const SAMPLE_PARCEL = { from_postcode: SHIPPING.pickupPostcode, to_postcode: '3000', length: '22', width: '16', height: '4', weight: '0.5' };

/** One quote from the PAC API (`domestic` or `international`), asked as checkout asks it, for the check `name`. */
function askPac(context: DoctorContext, name: string, apiKey: string, parcel: 'domestic' | 'international', query: Record<string, string>) {
  const base = context.endpoints.auspost.replace(/\/$/, '');
  return reach(context, { name, what: `Australia Post (${base})`, overrideVariable: 'DOCTOR_AUSPOST_API_URL' }, `${base}/postage/parcel/${parcel}/service.json?${new URLSearchParams(query)}`, {
    headers: { 'AUTH-KEY': apiKey, accept: 'application/json' },
  });
}

/** The PAC API's own error message, else one in the common shapes. */
function pacMessage(body: unknown): string | undefined {
  const pacError = (body as { error?: { errorMessage?: unknown } } | undefined)?.error?.errorMessage;
  return typeof pacError === 'string' ? pacError : errorMessage(body);
}

export async function checkAustraliaPost(context: DoctorContext): Promise<CheckResult> {
  const apiKey = context.env.AUSPOST_API_KEY;
  if (!apiKey) return skip(NAME, `AUSPOST_API_KEY is not set: ${OPTIONAL_VARIABLES.AUSPOST_API_KEY}`);
  const answer = await askPac(context, NAME, apiKey, 'domestic', SAMPLE_PARCEL);
  if (isCheckResult(answer)) return answer;
  if (answer.status === 401 || answer.status === 403) {
    return {
      name: NAME,
      status: 'fail',
      detail: `Australia Post refused AUSPOST_API_KEY (${answer.status}): every checkout would fall back to the fixed rate card`,
      fix: 'Australia Post Developer Centre → your Postage Assessment Calculator (PAC) API key: copy it into AUSPOST_API_KEY (scope Functions), or unset AUSPOST_API_KEY to use the fixed rate card on purpose.',
    };
  }
  const services = (answer.body as { services?: { service?: unknown } } | undefined)?.services?.service;
  if (answer.ok && services) {
    const count = Array.isArray(services) ? services.length : 1;
    return {
      name: NAME,
      status: 'pass',
      detail: `the key is accepted (${count} service${count === 1 ? '' : 's'} quoted for a ${SAMPLE_PARCEL.weight} kg parcel ${SAMPLE_PARCEL.from_postcode} → ${SAMPLE_PARCEL.to_postcode})`,
    };
  }
  const message = pacMessage(answer.body);
  return {
    name: NAME,
    status: 'fail',
    detail: `Australia Post answered ${answer.status} without a service list${message ? `: ${message}` : ''}`,
    fix: 'Run the doctor again; if it persists, checkouts use the fixed rate card meanwhile (the shop falls back on its own).',
  };
}

const INTERNATIONAL_NAME = 'Australia Post international rates';

/** One copy of the book to New York, as checkout asks it. */
const SAMPLE_ABROAD = { country_code: 'US', weight: '0.3' };

export async function checkAustraliaPostInternational(context: DoctorContext): Promise<CheckResult> {
  const apiKey = context.env.AUSPOST_API_KEY;
  if (!apiKey) return skip(INTERNATIONAL_NAME, 'AUSPOST_API_KEY is not set: parcels abroad are priced from content/shipping/international-rates.json');
  const answer = await askPac(context, INTERNATIONAL_NAME, apiKey, 'international', SAMPLE_ABROAD);
  if (isCheckResult(answer)) return answer;
  if (answer.status === 401 || answer.status === 403) {
    return {
      name: INTERNATIONAL_NAME,
      status: 'fail',
      detail: `Australia Post refused AUSPOST_API_KEY for international parcels (${answer.status}): every order abroad would be priced from the rate card`,
      fix: 'Australia Post Developer Centre → your Postage Assessment Calculator (PAC) API key: copy it into AUSPOST_API_KEY (scope Functions); check content/shipping/international-rates.json meanwhile.',
    };
  }
  const raw = (answer.body as { services?: { service?: unknown } } | undefined)?.services?.service;
  const services = (Array.isArray(raw) ? raw : raw ? [raw] : []) as Array<{ code?: unknown }>;
  const codes = new Set(services.map((service) => String(service.code ?? '').toUpperCase()));
  const missing = ['INT_PARCEL_STD_OWN_PACKAGING', 'INT_PARCEL_EXP_OWN_PACKAGING'].filter((code) => !codes.has(code));
  if (answer.ok && services.length && missing.length === 0) {
    return { name: INTERNATIONAL_NAME, status: 'pass', detail: `the key is accepted: International Standard and Express quoted for a ${SAMPLE_ABROAD.weight} kg parcel to the US` };
  }
  if (answer.ok && services.length) {
    return {
      name: INTERNATIONAL_NAME,
      status: 'warn',
      detail: `Australia Post quoted the US without ${listOf(missing)}: those orders are priced from the rate card`,
      fix: 'Check content/shipping/international-rates.json against Australia Post’s current International Post guide.',
    };
  }
  const message = pacMessage(answer.body);
  return {
    name: INTERNATIONAL_NAME,
    status: 'fail',
    detail: `Australia Post answered ${answer.status} without an international service list${message ? `: ${message}` : ''}`,
    fix: 'Run the doctor again; if it persists, orders abroad are priced from content/shipping/international-rates.json meanwhile (the shop falls back on its own).',
  };
}
