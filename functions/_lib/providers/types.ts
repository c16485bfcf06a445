/**
 * The side services the functions use, as plain interfaces. Each has a real adapter in this folder and a local
 * stand-in; callers only ever see these shapes, never a provider's own JSON. The delivery-option and address
 * shapes are the checkout's contract with the page (src/features/checkout/contract.ts). Also here: the two
 * errors adapters throw, and the one transport they share.
 */
import type { CountryCode } from '../../../src/config/constants';
import type { AddressSuggestion, NormalisedAddress, SatchelSize, ShippingQuote, ShippingService } from '../../../src/features/checkout/contract';

export type { AddressSuggestion, NormalisedAddress, SatchelSize, ShippingQuote, ShippingService };

// ---------------------------------------------------------------------------------------------------------------------
// Shipping rates

/** One parcel, described the way carriers price it. */
export interface ParcelRequest {
  fromPostcode: string;
  toPostcode: string;
  toSuburb?: string;
  toState?: string;
  country: CountryCode;
  weightGrams: number;
  lengthCm: number;
  widthCm: number;
  heightCm: number;
}

export interface ShippingRatesProvider {
  name: string;
  /** Live quotes for one parcel. Throws (a ProviderError) when the carrier cannot answer. */
  quote(request: ParcelRequest): Promise<ShippingQuote[]>;
}

// ---------------------------------------------------------------------------------------------------------------------
// Address lookup

export interface AddressLookupProvider {
  name: string;
  suggest(input: string, country: CountryCode, sessionToken: string): Promise<AddressSuggestion[]>;
  details(placeId: string, sessionToken: string): Promise<NormalisedAddress>;
}

// ---------------------------------------------------------------------------------------------------------------------
// Payment

export interface CheckoutSessionInput {
  orderId: string;
  customerEmail: string;
  /** Prices come from the database, never from the browser. */
  lineItems: Array<{ name: string; unitAmountCents: number; quantity: number }>;
  /** The delivery estimate in business days, or null when none is known (the payment page then shows none). */
  shipping: { name: string; amountCents: number; deliveryDays: { min: number; max: number } | null };
  /** Must contain the literal `{CHECKOUT_SESSION_ID}`, which the payment page fills in. */
  successUrl: string;
  cancelUrl: string;
  /** Same key, same session: a retried create never charges twice. */
  idempotencyKey: string;
}

export interface PaymentSession {
  id: string;
  status: 'open' | 'complete' | 'expired';
  paymentStatus: 'paid' | 'unpaid' | 'no_payment_required';
  /** What the session charged, in cents, and in which currency (ISO code); null when the provider does not say. */
  amountTotalCents: number | null;
  currency: string | null;
}

/**
 * A provider's webhook event, as what the shop should do about it: fulfil the session's order, cancel it
 * (the session expired or its payment failed), or ignore the event. The shop finds the order by the session
 * id it stored, never by ids carried in the event.
 */
export type PaymentEvent = { id: string; type: string; action: 'fulfil' | 'cancel'; session: PaymentSession } | { id: string; type: string; action: 'ignore'; session: null };

export interface PaymentProvider {
  name: 'stripe' | 'local-test';
  createCheckoutSession(input: CheckoutSessionInput): Promise<{ id: string; url: string }>;
  retrieveSession(id: string): Promise<PaymentSession>;
  /** Verifies the signature on the raw body; throws WebhookSignatureError when it does not match. */
  parseWebhook(rawBody: string, signature: string | null): Promise<PaymentEvent>;
  /** Refunds a paid session in full; the same `idempotencyKey` never refunds twice. */
  refundSession(sessionId: string, input: { orderId: string; idempotencyKey: string }): Promise<PaymentRefund>;
}

export interface PaymentRefund {
  id: string;
  /** Stripe's refund status: pending and succeeded both mean the money is on its way back. */
  status: 'pending' | 'succeeded' | 'failed' | 'requires_action' | 'canceled';
}

// ---------------------------------------------------------------------------------------------------------------------
// Email and human check

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Where the publisher's Reply goes (the visitor who wrote), when that is not the sender. */
  replyTo?: string;
  /** Lets a retried send be recognised as the same email. */
  idempotencyKey?: string;
}

export interface EmailProvider {
  name: string;
  send(message: EmailMessage): Promise<void>;
}

export type HumanCheckResult = { ok: true } | { ok: false; reason: string };

export interface HumanCheckProvider {
  name: string;
  verify(token: string, expected: { action: string; hostname: string; remoteIp?: string }): Promise<HumanCheckResult>;
}

// ---------------------------------------------------------------------------------------------------------------------
// Errors

/**
 * What went wrong, coarsely, so callers can decide without reading messages:
 * `timeout` and `network` mean the provider was not reached in time (worth a fallback or a retry),
 * `rejected` means it answered with an error, `invalid-response` means it answered something we cannot trust,
 * `unsupported` means the request was never sent because the provider cannot serve it.
 */
export type ProviderErrorCode = 'timeout' | 'network' | 'rejected' | 'invalid-response' | 'unsupported';

/** Thrown by adapters on any provider failure. `message` is for logs; `userMessage` only when safe to show a shopper. */
export class ProviderError extends Error {
  readonly provider: string;
  /** The provider's HTTP status, or the closest one (504 timeout, 502 unreachable or garbage, 400 refused locally). */
  readonly status: number;
  readonly code: ProviderErrorCode;
  readonly userMessage: string | undefined;

  constructor(provider: string, status: number, message: string, options: { code?: ProviderErrorCode; userMessage?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ProviderError';
    this.provider = provider;
    this.status = status;
    this.code = options.code ?? 'rejected';
    this.userMessage = options.userMessage;
  }
}

/** A webhook whose signature is missing or does not match: answer 400 and do nothing. */
export class WebhookSignatureError extends Error {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'WebhookSignatureError';
  }
}

// ---------------------------------------------------------------------------------------------------------------------
// Shared transport

export interface ProviderHttpResponse {
  status: number;
  ok: boolean;
  /** The parsed JSON body, or undefined when the body is empty or not JSON (gateways answer HTML too). */
  body: unknown;
}

/**
 * One HTTP call to a provider with a hard deadline. A provider that does not answer in `timeoutMs` (headers and
 * body together) or cannot be reached becomes a ProviderError, so a slow carrier can never hang a function
 * past Netlify's own limit. Any HTTP status is returned to the adapter, which knows its provider's error shape.
 */
export async function requestProvider(provider: string, fetchImpl: typeof globalThis.fetch, url: string, init: RequestInit, timeoutMs: number): Promise<ProviderHttpResponse> {
  const signal = AbortSignal.timeout(timeoutMs);
  let text: string;
  let response: Response;
  try {
    response = await fetchImpl(url, { ...init, signal });
    text = await response.text();
  } catch (error) {
    if (signal.aborted) {
      throw new ProviderError(provider, 504, `${provider} did not answer within ${timeoutMs} ms.`, { code: 'timeout', cause: error });
    }
    throw new ProviderError(provider, 502, `${provider} could not be reached: ${error instanceof Error ? error.message : String(error)}`, {
      code: 'network',
      cause: error,
    });
  }
  let body: unknown;
  if (text.trim() !== '') {
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
  }
  return { status: response.status, ok: response.ok, body };
}
