/**
 * Starshipit's keys: a cheap authenticated GET (/api/orders/unshipped?limit=1) with both headers. Starshipit's API
 * does not show the tracking webhook's address, so the line says where to set it and which secret it must carry.
 */
import type { CheckResult, DoctorContext } from '../types';
import { errorMessage, isCheckResult, reach, skip } from './common';

const NAME = 'Starshipit';

export async function checkStarshipit(context: DoctorContext): Promise<CheckResult> {
  const { STARSHIPIT_API_KEY: apiKey, STARSHIPIT_SUBSCRIPTION_KEY: subscriptionKey, STARSHIPIT_WEBHOOK_SECRET: secret } = context.env;
  if (!apiKey || !subscriptionKey) return skip(NAME, 'needs STARSHIPIT_API_KEY and STARSHIPIT_SUBSCRIPTION_KEY (see Optional variables)');
  const base = context.endpoints.starshipit.replace(/\/$/, '');
  const answer = await reach(context, { name: NAME, what: `Starshipit (${base})`, overrideVariable: 'DOCTOR_STARSHIPIT_API_URL' }, `${base}/api/orders/unshipped?limit=1`, {
    headers: { 'StarShipIT-Api-Key': apiKey, 'Ocp-Apim-Subscription-Key': subscriptionKey, accept: 'application/json' },
  });
  if (isCheckResult(answer)) return answer;
  const webhook = `${context.site.origin}/api/shipping-webhook`;
  if (answer.status === 401 || answer.status === 403) {
    return {
      name: NAME,
      status: 'fail',
      detail: `Starshipit refused STARSHIPIT_API_KEY or STARSHIPIT_SUBSCRIPTION_KEY (${answer.status}${errorMessage(answer.body) ? `: ${errorMessage(answer.body)}` : ''}): paid orders would not reach it`,
      fix: 'In Starshipit: Settings → API, copy the API key into STARSHIPIT_API_KEY and the subscription key into STARSHIPIT_SUBSCRIPTION_KEY (scope Functions), then redeploy.',
    };
  }
  if (!answer.ok) {
    return {
      name: NAME,
      status: 'fail',
      detail: `Starshipit answered ${answer.status}${errorMessage(answer.body) ? `: ${errorMessage(answer.body)}` : ''}`,
      fix: 'Run the doctor again; if it persists, check Starshipit’s status page.',
    };
  }
  if (!secret) {
    return {
      name: NAME,
      status: 'warn',
      detail: 'the keys are accepted, but STARSHIPIT_WEBHOOK_SECRET is not set: tracking events would be refused, so no order completes on its own',
      fix: `In Starshipit: Settings → Tracking & notifications, set the webhook URL to ${webhook} with a secret key, and put the same key in STARSHIPIT_WEBHOOK_SECRET (scope Functions).`,
    };
  }
  return {
    name: NAME,
    status: 'pass',
    detail: `the keys are accepted; Starshipit's API does not show its webhook, so check that Settings → Tracking & notifications sends to ${webhook} with the secret in STARSHIPIT_WEBHOOK_SECRET`,
  };
}
