/**
 * The Stripe webhook endpoint: GET {api}/v1/webhook_endpoints (Bearer secret key) lists the account's
 * endpoints of the key's mode as { data: [{ url, status: enabled|disabled, enabled_events }], has_more }.
 * One must be enabled, send to {site}/api/stripe-webhook, and send every event the shop acts on ('*' sends all).
 */
import { z } from 'zod';
import { STRIPE_WEBHOOK_EVENTS } from '../../../functions/_lib/providers/stripe';
import type { CheckResult, DoctorContext } from '../types';
import { errorMessage, isCheckResult, listOf, reach, skip } from './common';

const NAME = 'Stripe webhook';
const WEBHOOK_PATH = '/api/stripe-webhook';
/** Pages of 100 endpoints; Stripe allows 16 endpoints per account, so one page is the norm. */
const MAX_PAGES = 10;

const endpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  status: z.string(),
  enabled_events: z.array(z.string()),
});
const listSchema = z.object({ data: z.array(endpointSchema), has_more: z.boolean().optional().default(false) });

type Endpoint = z.infer<typeof endpointSchema>;

/** Origin and path, without a trailing slash or query: how Stripe's URL and ours are compared. */
function normalised(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`;
  } catch {
    return undefined;
  }
}

function missingEvents(endpoint: Endpoint): string[] {
  if (endpoint.enabled_events.includes('*')) return [];
  return STRIPE_WEBHOOK_EVENTS.filter((event) => !endpoint.enabled_events.includes(event));
}

export async function checkStripeWebhook(context: DoctorContext): Promise<CheckResult> {
  const secret = context.env.STRIPE_SECRET_KEY;
  if (!secret) return skip(NAME, 'needs STRIPE_SECRET_KEY (see Required variables)');
  const expected = new URL(WEBHOOK_PATH, context.site).href;
  const base = context.endpoints.stripe.replace(/\/$/, '');

  const endpoints: Endpoint[] = [];
  let startingAfter: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const query = new URLSearchParams({ limit: '100', ...(startingAfter ? { starting_after: startingAfter } : {}) });
    const answer = await reach(context, { name: NAME, what: `Stripe (${base})`, overrideVariable: 'DOCTOR_STRIPE_API_URL' }, `${base}/v1/webhook_endpoints?${query}`, {
      headers: { authorization: `Bearer ${secret}` },
    });
    if (isCheckResult(answer)) return answer;
    if (answer.status === 401) {
      return {
        name: NAME,
        status: 'fail',
        detail: `Stripe refused STRIPE_SECRET_KEY (401${errorMessage(answer.body) ? `: ${errorMessage(answer.body)}` : ''})`,
        fix: 'Copy a current secret key from Stripe Dashboard → Developers → API keys into STRIPE_SECRET_KEY (an expired or rolled key answers 401).',
      };
    }
    if (answer.status === 403) {
      // A restricted key without read access to webhook endpoints: the key may be fine for checkout.
      return {
        name: NAME,
        status: 'warn',
        detail: `the key may not read webhook endpoints (403${errorMessage(answer.body) ? `: ${errorMessage(answer.body)}` : ''}), so the endpoint was not checked`,
        fix: `Check by hand in Stripe Dashboard → Developers → Webhooks that ${expected} is enabled with ${listOf([...STRIPE_WEBHOOK_EVENTS])}, or give the restricted key read access to Webhook Endpoints.`,
      };
    }
    const parsed = listSchema.safeParse(answer.body);
    if (!answer.ok || !parsed.success) {
      return {
        name: NAME,
        status: 'fail',
        detail: `Stripe answered ${answer.status} without a list of webhook endpoints${errorMessage(answer.body) ? `: ${errorMessage(answer.body)}` : ''}`,
        fix: 'Run the doctor again; if it persists, check status.stripe.com.',
      };
    }
    endpoints.push(...parsed.data.data);
    if (!parsed.data.has_more || parsed.data.data.length === 0) break;
    startingAfter = parsed.data.data.at(-1)!.id;
  }

  const target = normalised(expected);
  const ours = endpoints.filter((endpoint) => normalised(endpoint.url) === target);
  const addEndpoint = [
    `Stripe Dashboard → Developers → Webhooks → Add endpoint: URL ${expected}, events:`,
    ...STRIPE_WEBHOOK_EVENTS.map((event) => `  ${event}`),
    'then put its signing secret (whsec_…) in STRIPE_WEBHOOK_SECRET (scope Functions).',
  ].join('\n');

  if (ours.length === 0) {
    const elsewhere = endpoints.filter((endpoint) => {
      try {
        return new URL(endpoint.url).pathname.replace(/\/+$/, '') === WEBHOOK_PATH || new URL(endpoint.url).origin === context.site.origin;
      } catch {
        return false;
      }
    });
    return {
      name: NAME,
      status: 'fail',
      detail:
        `no webhook endpoint sends to ${expected}` +
        (elsewhere.length ? ` (found ${elsewhere.map((endpoint) => endpoint.url).join(', ')} instead)` : endpoints.length ? '' : ': the account has none in this mode'),
      fix: elsewhere.length ? `Stripe Dashboard → Developers → Webhooks → ${elsewhere[0]!.url} → Update details: set the URL to ${expected}, or:\n${addEndpoint}` : addEndpoint,
    };
  }

  const good = ours.filter((endpoint) => endpoint.status === 'enabled' && missingEvents(endpoint).length === 0);
  if (good.length === 0) {
    const endpoint = ours.find((candidate) => candidate.status === 'enabled') ?? ours[0]!;
    const problems: string[] = [];
    const fixes: string[] = [];
    if (endpoint.status !== 'enabled') {
      problems.push(`the endpoint ${endpoint.id} for ${expected} is ${endpoint.status}: Stripe sends it nothing`);
      fixes.push(`Stripe Dashboard → Developers → Webhooks → ${endpoint.id} → ⋯ → Enable endpoint.`);
    }
    const missing = missingEvents(endpoint);
    if (missing.length) {
      problems.push(`the endpoint ${endpoint.id} does not send ${listOf(missing)}`);
      fixes.push(`Stripe Dashboard → Developers → Webhooks → ${endpoint.id} → Update details → Select events: add ${listOf(missing)}.`);
    }
    return { name: NAME, status: 'fail', detail: problems.join('; '), fix: fixes.join('\n') };
  }

  const enabled = ours.filter((endpoint) => endpoint.status === 'enabled');
  if (enabled.length > 1) {
    return {
      name: NAME,
      status: 'warn',
      detail: `${enabled.length} enabled endpoints send to ${expected} (${enabled.map((endpoint) => endpoint.id).join(', ')}): each signs with its own secret, so the deliveries of all but one fail the signature check`,
      fix: 'Keep one endpoint for this URL (delete or disable the others) and put its signing secret in STRIPE_WEBHOOK_SECRET.',
    };
  }
  return {
    name: NAME,
    status: 'pass',
    detail: `${good[0]!.id} is enabled for ${expected} with ${good[0]!.enabled_events.includes('*') ? 'every event (*)' : `the ${STRIPE_WEBHOOK_EVENTS.length} events the shop handles`}`,
  };
}
