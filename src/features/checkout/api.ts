/** The checkout's calls to the server functions, with readable errors. */
import type { ShippingQuote } from './contract';
import type { GiftChoice } from './gift';
import type { CodeAnswer } from './promotion-code';
import type { CartLine } from '@/features/cart/cart';
import { $auth } from '@/features/account/auth';
import { postJson } from '@/lib/post-json';
import { nextLookupSession, withLookupSession } from './lookup-session';
import { checkoutCartId } from './payment-tabs';

export type { ShippingQuote };

/** A function's refusal: its message for the shopper, and the rest of its answer (e.g. the current delivery options). */
export class RequestError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(message);
  }
}

/** A refusal about one cart line (too few copies left): its product, the copies left and the message. */
export interface LineProblem {
  productId: string;
  available: number;
  message: string;
}

/** The cart line a function's refusal is about, if it names one. */
export function lineProblemOf(error: unknown): LineProblem | null {
  if (!(error instanceof RequestError)) return null;
  const line = error.body.line as { productId?: unknown; available?: unknown } | undefined;
  if (!line || typeof line.productId !== 'string' || typeof line.available !== 'number') return null;
  return { productId: line.productId, available: line.available, message: error.message };
}

/** Netlify's own 429 (a function's rate limit) has no message of ours in its body. */
export const TOO_MANY_REQUESTS = 'Too many requests. Please wait a minute and try again.';

async function post<T>(path: string, body: unknown, headers: Record<string, string> = {}): Promise<T> {
  const answer = await postJson(path, body, headers);
  if (!answer.ok) {
    const fallback = answer.status === 429 ? TOO_MANY_REQUESTS : `Request failed (${answer.status})`;
    throw new RequestError((typeof answer.body.error === 'string' && answer.body.error) || fallback, answer.status, answer.body);
  }
  return answer.body as T;
}

export type PaymentConfig = { mode: 'stripe' | 'local-test'; publishableKey: string | null } | { mode: 'unavailable'; message: string };

export const getPaymentConfig = () => post<PaymentConfig>('/api/payment-config', {});

const cartPayload = (lines: readonly CartLine[]) => lines.map((l) => ({ id: l.product.id, quantity: l.quantity }));

export interface AddressFields {
  fullName: string;
  phone: string;
  addressLine1: string;
  addressLine2: string;
  city: string;
  state: string;
  postalCode: string;
  country: string;
}

/**
 * Whether a promotion code applies to this cart (priced by the server), with the reason when it does not. `email`:
 * the one typed so far, so a use held by this shopper's own unpaid checkout is not held against them.
 */
export const checkCode = (code: string, lines: readonly CartLine[], email = '') =>
  post<CodeAnswer & { message: string | null }>('/api/promotion-code', { code, cartItems: cartPayload(lines), ...(email.trim() && { email: email.trim() }) });

/** `promotionCode`: the code applied, since free shipping is judged on the goods after it. */
export const fetchQuotes = (address: AddressFields, lines: readonly CartLine[], promotionCode?: string) =>
  withLookupSession((lookupSession) =>
    post<{ quotes: ShippingQuote[]; fallback: boolean; message?: string }>('/api/courier-rates', {
      pickupPostcode: '',
      deliveryPostcode: address.postalCode,
      deliverySuburb: address.city,
      deliveryState: address.state,
      deliveryAddressLine1: address.addressLine1,
      deliveryAddressLine2: address.addressLine2,
      deliveryCountry: address.country,
      cart: cartPayload(lines),
      ...(promotionCode && { promotionCode }),
      lookupSession,
    }),
  );

export const suggestAddresses = (input: string, country: string) =>
  withLookupSession((lookupSession) => post<{ predictions: Array<{ place_id: string; description: string }> }>('/api/address-places', { action: 'suggest', input, country, lookupSession }));

/** The chosen place's address; its answer carries the session for the next address (Google's ends here). */
export async function addressDetails(placeId: string) {
  const answer = await withLookupSession((lookupSession) =>
    post<{ ok: boolean; address: { line1: string; line2: string; city: string; state: string; postal_code: string; country: string }; lookupSession?: string }>('/api/address-places', {
      action: 'details',
      place_id: placeId,
      lookupSession,
    }),
  );
  if (answer.lookupSession) nextLookupSession(answer.lookupSession);
  return answer;
}

/** `cancelPath` is where the payment page's Cancel returns to, on this site. */
export function createCheckout(input: {
  lines: readonly CartLine[];
  email: string;
  address: AddressFields;
  method: ShippingQuote;
  cancelPath: string;
  gift: GiftChoice;
  reminderConsent: boolean;
  promotionCode?: string;
}) {
  const token = $auth.get().session?.access_token;
  const cartId = checkoutCartId();
  return post<{ url: string; sessionId: string; orderId: string; reused?: boolean }>(
    '/api/create-checkout',
    {
      cartItems: cartPayload(input.lines),
      customerEmail: input.email,
      ...(input.promotionCode && { promotionCode: input.promotionCode }),
      shippingDetails: {
        ...input.address,
        email: input.email,
        shippingMethod: { id: input.method.id, name: input.method.plan_name, carrier: input.method.carrier, price: input.method.price },
      },
      successUrl: `${window.location.origin}/order-confirmation?session_id={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${window.location.origin}${input.cancelPath}`,
      gift: input.gift.isGift ? input.gift : { isGift: false },
      reminderConsent: input.reminderConsent,
      ...(cartId && { cartId }),
    },
    token ? { authorization: `Bearer ${token}` } : {},
  );
}

/** The order on screen is no longer the one the open payment page was made for: that page is closed now. */
export async function closeChangedPaymentPage(): Promise<void> {
  const cartId = checkoutCartId();
  if (cartId) await post<{ closed: number }>('/api/checkout-changed', { cartId });
}

export interface VerifiedPayment {
  paymentStatus: string;
  orderId: string;
  /** The order's number as the buyer reads it ("1001"). */
  orderNumber: string;
  /** A paid order: what the confirmation page shows. */
  order?: {
    items: Array<{ title: string; quantity: number; amount: number }>;
    discount: number;
    shipping: number;
    total: number;
    /** The delivery name and address, line by line, as the destination's post writes them. */
    deliverTo: string[];
    /** Where the confirmation email went. */
    email: string;
    /** The order's status page (its token in the fragment). */
    statusPath: string;
    /** A gift: whom it goes to, the message for the gift slip, and whether the parcel leaves prices out. */
    gift?: { recipient: string; message: string; hidePrices: boolean } | null;
    /** An order holding a pre-order: the title it waits for (the one out last) and its release day ('YYYY-MM-DD'); it ships once, then. */
    preorder?: { title: string; releaseDate: string } | null;
  };
  shippingDetails: { shippingMethod: { name: string; estimatedDelivery: string; carrier: string } };
}

export const verifyPayment = (sessionId: string) => post<VerifiedPayment>('/api/verify-payment', { sessionId });
