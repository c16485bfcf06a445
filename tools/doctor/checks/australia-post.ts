/**
 * Australia Post's Postage Assessment Calculator key: one small domestic parcel quote, as the shop asks it
 * (GET {api}/postage/parcel/domestic/service.json, key in AUTH-KEY), and one international one to the US
 * (GET {api}/postage/parcel/international/service.json?country_code&weight). 200 with services: the key works;
 * 401/403: the key is refused and every checkout falls back to the rate card.
 */
import { SHIPPING } from '../../../src/config/constants';
import type { CheckResult, DoctorContext, HttpAnswer } from '../types';
import { errorMessage, isCheckResult, listOf, reach, skip } from './common';
import { OPTIONAL_VARIABLES } from './variables';

const NAME = 'Australia Post rates';

/** A board book in a small box, from the shop's postcode to Melbourne. */
const SAMPLE_PARCEL = { from_postcode: SHIPPING.pickupPostcode, to_postcode: '3000', length: '22', width: '16', height: '4', weight: '0.5' };

/** A PAC quote check: its line's name, the parcel asked for, and what a missing or refused key costs. */
interface PacQuote {
  name: string;
  parcel: 'domestic' | 'international';
  query: Record<string, string>;
  unset: string;
  refused: (status: number) => string;
  refusedFix: string;
}

/**
 * One quote from the PAC API, asked as checkout asks it: the check's line when there is no key, no answer or a
 * refused key, else the answer and the services it quoted.
 */
async function askPac(context: DoctorContext, quote: PacQuote): Promise<CheckResult | { answer: HttpAnswer; services: unknown }> {
  const apiKey = context.env.AUSPOST_API_KEY;
  if (!apiKey) return skip(quote.name, quote.unset);
  const base = context.endpoints.auspost.replace(/\/$/, '');
  const answer = await reach(
    context,
    { name: quote.name, what: `Australia Post (${base})`, overrideVariable: 'DOCTOR_AUSPOST_API_URL' },
    `${base}/postage/parcel/${quote.parcel}/service.json?${new URLSearchParams(quote.query)}`,
    {
      headers: { 'AUTH-KEY': apiKey, accept: 'application/json' },
    },
  );
  if (isCheckResult(answer)) return answer;
  if (answer.status === 401 || answer.status === 403) return { name: quote.name, status: 'fail', detail: quote.refused(answer.status), fix: quote.refusedFix };
  return { answer, services: (answer.body as { services?: { service?: unknown } } | undefined)?.services?.service };
}

/** An answer without the services asked for (`list`): fails with the PAC API's own error message, else one in the common shapes. */
function noServiceList(name: string, answer: HttpAnswer, list: string, fix: string): CheckResult {
  const pacError = (answer.body as { error?: { errorMessage?: unknown } } | undefined)?.error?.errorMessage;
  const message = typeof pacError === 'string' ? pacError : errorMessage(answer.body);
  return { name, status: 'fail', detail: `Australia Post answered ${answer.status} without ${list}${message ? `: ${message}` : ''}`, fix };
}

export async function checkAustraliaPost(context: DoctorContext): Promise<CheckResult> {
  const quoted = await askPac(context, {
    name: NAME,
    parcel: 'domestic',
    query: SAMPLE_PARCEL,
    unset: `AUSPOST_API_KEY is not set: ${OPTIONAL_VARIABLES.AUSPOST_API_KEY}`,
    refused: (status) => `Australia Post refused AUSPOST_API_KEY (${status}): every checkout would fall back to the fixed rate card`,
    refusedFix:
      'Australia Post Developer Centre → your Postage Assessment Calculator (PAC) API key: copy it into AUSPOST_API_KEY (scope Functions), or unset AUSPOST_API_KEY to use the fixed rate card on purpose.',
  });
  if ('name' in quoted) return quoted;
  const { answer, services } = quoted;
  if (answer.ok && services) {
    const count = Array.isArray(services) ? services.length : 1;
    return {
      name: NAME,
      status: 'pass',
      detail: `the key is accepted (${count} service${count === 1 ? '' : 's'} quoted for a ${SAMPLE_PARCEL.weight} kg parcel ${SAMPLE_PARCEL.from_postcode} → ${SAMPLE_PARCEL.to_postcode})`,
    };
  }
  return noServiceList(NAME, answer, 'a service list', 'Run the doctor again; if it persists, checkouts use the fixed rate card meanwhile (the shop falls back on its own).');
}

const INTERNATIONAL_NAME = 'Australia Post international rates';

/** One copy of the book to New York, as checkout asks it. */
const SAMPLE_ABROAD = { country_code: 'US', weight: '0.3' };

export async function checkAustraliaPostInternational(context: DoctorContext): Promise<CheckResult> {
  const quoted = await askPac(context, {
    name: INTERNATIONAL_NAME,
    parcel: 'international',
    query: SAMPLE_ABROAD,
    unset: 'AUSPOST_API_KEY is not set: parcels abroad are priced from content/shipping/international-rates.json',
    refused: (status) => `Australia Post refused AUSPOST_API_KEY for international parcels (${status}): every order abroad would be priced from the rate card`,
    refusedFix:
      'Australia Post Developer Centre → your Postage Assessment Calculator (PAC) API key: copy it into AUSPOST_API_KEY (scope Functions); check content/shipping/international-rates.json meanwhile.',
  });
  if ('name' in quoted) return quoted;
  const { answer } = quoted;
  const services = (Array.isArray(quoted.services) ? quoted.services : quoted.services ? [quoted.services] : []) as Array<{ code?: unknown }>;
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
  return noServiceList(
    INTERNATIONAL_NAME,
    answer,
    'an international service list',
    'Run the doctor again; if it persists, orders abroad are priced from content/shipping/international-rates.json meanwhile (the shop falls back on its own).',
  );
}
