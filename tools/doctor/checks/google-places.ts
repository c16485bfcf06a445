/**
 * The Google Places API (New) key: one minimal autocomplete request, as the shop sends it
 * (POST {api}/v1/places:autocomplete, key in X-Goog-Api-Key). Errors are google.rpc.Status
 * { error: { code, message, status, details: [{ reason }] } }: 400 API_KEY_INVALID for a wrong key,
 * 403 PERMISSION_DENIED when the API is off for the key's project or the key's restrictions block it.
 */
import { z } from 'zod';
import type { CheckResult, DoctorContext } from '../types';
import { isCheckResult, reach, skip } from './common';
import { OPTIONAL_VARIABLES } from './variables';

const NAME = 'Google Places';

const googleErrorSchema = z.object({
  error: z.object({
    code: z.number().optional(),
    message: z.string().optional(),
    status: z.string().optional(),
    details: z.array(z.looseObject({ reason: z.string().optional() })).optional(),
  }),
});

/** What to do for each reason Google gives (google.rpc.ErrorInfo.reason). */
const FIX_BY_REASON: Record<string, string> = {
  API_KEY_INVALID: 'Google Cloud → APIs & Services → Credentials: copy the key again into GOOGLE_PLACES_API_KEY (scope Functions).',
  SERVICE_DISABLED: 'Google Cloud → APIs & Services → Library: enable "Places API (New)" in the project that owns the key (the older "Places API" is not the same API).',
  API_KEY_SERVICE_BLOCKED: 'Google Cloud → Credentials → the key → API restrictions: add "Places API (New)".',
  API_KEY_HTTP_REFERRER_BLOCKED:
    'Google Cloud → Credentials → the key → Application restrictions: the functions call from Netlify’s servers with no referrer, so use "None" (keep the API restriction to Places API (New)).',
  API_KEY_IP_ADDRESS_BLOCKED:
    'Google Cloud → Credentials → the key → Application restrictions: Netlify’s functions have no fixed IP address, so use "None" (keep the API restriction to Places API (New)).',
  BILLING_DISABLED: 'Google Cloud → Billing: link a billing account to the project that owns the key (Places API (New) needs one).',
};

/**
 * Google bills each look-up; the shop limits them per visitor, but only Google can cap what a key spends in a day.
 * The doctor cannot read a project's quotas with an API key, so it reminds.
 */
export const PLACES_SPENDING_REMINDER =
  "Reminder: cap the key's spending in Google Cloud: APIs & Services → Places API (New) → Quotas & system limits, set the requests per day (e.g. 2,000), and Billing → Budgets & alerts, a monthly budget with an email alert (docs/deploy.md).";

const GENERIC_FIX = `${FIX_BY_REASON.SERVICE_DISABLED}\nAlso check the key's API restrictions include "Places API (New)" and its application restriction is "None".`;

export async function checkGooglePlaces(context: DoctorContext): Promise<CheckResult> {
  const apiKey = context.env.GOOGLE_PLACES_API_KEY;
  if (!apiKey) return skip(NAME, `GOOGLE_PLACES_API_KEY is not set: ${OPTIONAL_VARIABLES.GOOGLE_PLACES_API_KEY}`);
  const base = context.endpoints.places.replace(/\/$/, '');
  const answer = await reach(context, { name: NAME, what: `Google Places (${base})`, overrideVariable: 'DOCTOR_GOOGLE_PLACES_API_URL' }, `${base}/v1/places:autocomplete`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'X-Goog-Api-Key': apiKey, 'X-Goog-FieldMask': 'suggestions.placePrediction.placeId' },
    body: JSON.stringify({ input: '1 Martin Place, Sydney', includedRegionCodes: ['au'] }),
  });
  if (isCheckResult(answer)) return answer;
  if (answer.ok) return { name: NAME, status: 'pass', detail: `the key is accepted for Places API (New) autocomplete\n${PLACES_SPENDING_REMINDER}` };

  const parsed = googleErrorSchema.safeParse(answer.body);
  const error = parsed.success ? parsed.data.error : undefined;
  const reason = error?.details?.map((detail) => detail.reason).find((r): r is string => Boolean(r));
  const label = [error?.status, reason].filter(Boolean).join(' ');
  const rejected = answer.status === 400 || answer.status === 401 || answer.status === 403;
  return {
    name: NAME,
    status: 'fail',
    detail: rejected
      ? `Google refused GOOGLE_PLACES_API_KEY (${answer.status}${label ? ` ${label}` : ''}${error?.message ? `: ${error.message}` : ''}): shoppers get no address suggestions`
      : `Google Places answered ${answer.status}${label ? ` ${label}` : ''}${error?.message ? `: ${error.message}` : ''}`,
    fix: rejected
      ? ((reason && FIX_BY_REASON[reason]) ?? (/api key not valid/i.test(error?.message ?? '') ? FIX_BY_REASON.API_KEY_INVALID : GENERIC_FIX))
      : 'Run the doctor again; if it persists, check status.cloud.google.com.',
  };
}
