/**
 * What the Stripe adapters (Checkout in stripe.ts, Invoicing in stripe-invoicing.ts) share: one way to make the
 * client, to call it, to turn its errors into ProviderErrors and to verify a webhook.
 */
import Stripe from 'stripe';
import { z } from 'zod';
import { ProviderError, WebhookSignatureError } from './errors';

export const NAME = 'stripe';

export interface StripeOptions {
  secretKey: string;
  /** whsec_… of the /api/stripe-webhook endpoint. Without it webhooks cannot be trusted, so parseWebhook refuses. */
  webhookSecret?: string;
  /** Passed to the Stripe client; tests point it at a local server with { host, port, protocol }. */
  stripeOptions?: Stripe.StripeConfig;
}

export function createStripeClient({ secretKey, stripeOptions }: StripeOptions): Stripe {
  return new Stripe(secretKey, {
    // Well inside Netlify's function limit; idempotency keys make the SDK's retries safe.
    timeout: 15_000,
    maxNetworkRetries: 2,
    appInfo: { name: 'catholic-kids-books-shop' },
    ...stripeOptions,
  });
}

/** Stripe's typed errors become ProviderErrors, keeping the HTTP status; anything else is passed on unchanged. */
function fromStripeError(error: unknown, action: string): unknown {
  if (!(error instanceof Stripe.errors.StripeError)) return error;
  // Connection errors (refused, reset, timed out) carry no status: Stripe was not reached, or not in time.
  const unreached = error instanceof Stripe.errors.StripeConnectionError;
  const status = error.statusCode ?? (unreached ? 504 : 502);
  const code = unreached ? 'network' : 'rejected';
  return new ProviderError(NAME, status, `Stripe could not ${action} (${status}${error.code ? ` ${error.code}` : ''}): ${error.message}`, { code, cause: error });
}

export function invalid(what: string, cause: unknown): ProviderError {
  return new ProviderError(NAME, 502, `Stripe answered ${what} we cannot read.`, { code: 'invalid-response', cause });
}

/**
 * One call to Stripe: its errors become ProviderErrors saying what could not be done (`action`), and its
 * answer is read with `schema`, an answer that does not fit being `unreadable` (named in the error).
 */
export async function askStripe<S extends z.ZodType>(action: string, schema: S, unreadable: string, call: () => Promise<unknown>): Promise<z.output<S>> {
  let answer: unknown;
  try {
    answer = await call();
  } catch (error) {
    throw fromStripeError(error, action);
  }
  const parsed = schema.safeParse(answer);
  if (!parsed.success) throw invalid(unreadable, parsed.error);
  return parsed.data;
}

const eventSchema = z.object({ id: z.string().min(1), type: z.string().min(1), data: z.object({ object: z.unknown() }) });

/** A webhook's event once its signature is verified against the raw body. */
export async function verifiedStripeEvent(stripe: Stripe, webhookSecret: string | undefined, rawBody: string, signature: string | null): Promise<z.output<typeof eventSchema>> {
  if (!webhookSecret) throw new ProviderError(NAME, 500, 'STRIPE_WEBHOOK_SECRET is not set, so webhooks cannot be verified.', { code: 'unsupported' });
  if (!signature) throw new WebhookSignatureError('The Stripe-Signature header is missing.');
  let event: unknown;
  try {
    // The raw body, byte for byte: any re-serialisation would break the signature.
    event = await stripe.webhooks.constructEventAsync(rawBody, signature, webhookSecret);
  } catch (error) {
    if (error instanceof Stripe.errors.StripeSignatureVerificationError) throw new WebhookSignatureError(error.message, { cause: error });
    throw invalid('a webhook body', error);
  }
  const parsed = eventSchema.safeParse(event);
  if (!parsed.success) throw invalid('an event', parsed.error);
  return parsed.data;
}
