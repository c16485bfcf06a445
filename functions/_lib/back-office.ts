/**
 * The publisher's order actions that reach outside the database: shipping (one email per tracking number),
 * delivery, cancel-and-refund, retrying a refund, resending the confirmation. Each checks the caller is staff in
 * the database first (with the caller's own token), then changes the order through a service-role database
 * function that also appends the order's history.
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { type ZodType, z } from 'zod';
import { readServerEnv, type ServerEnv } from '../../src/config/env';
import type { OrderAction } from '../../src/features/staff-actions/order-actions';
import { BACK_OFFICE } from '../../src/config/constants';
import { formatPrice } from '../../src/lib/format';
import { DB_OUTCOMES } from '../../src/lib/db-outcomes';
import { fromCents } from '../../src/lib/money';
import { confirmationEmail, partRefundEmail, refundEmail, shippingEmail } from './emails';
import { refundInFull, sendOrderEmailOnce, type FulfilmentServices } from './fulfilment';
import type { PaymentRefund } from './providers/payments';
import { purgeLiveCatalog } from './live-catalog';
import { handle, problem, readJsonBody, type FunctionHandler } from './http';
import { getOrder, getOrderWithItems, type Order } from './orders';
import { ConfigurationError } from './runtime';
import { SHIPPING_PLATFORM_NOT_SET_UP } from './providers/select';
import { cancelAtPlatform, sendToPlatformOnce, updatePlatformAddress } from './shipments';
import { outcomeAnswer, rpc } from './supabase-admin';

type StaffCheck = { ok: true; email: string } | { ok: false; status: 401 | 403; message: string };

/** A database client acting as the request's caller (their bearer token), or null when it carries none. */
export function callerClient(env: ServerEnv, request: Request): SupabaseClient | null {
  const token = request.headers.get('authorization')?.match(/^Bearer\s+(.+)$/i)?.[1];
  if (!token) return null;
  const url = env.SUPABASE_URL ?? env.PUBLIC_SUPABASE_URL;
  const key = env.SUPABASE_SERVICE_ROLE_KEY;
  if (!url || !key) throw new ConfigurationError('SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY must be set for the functions.');
  // The caller's token decides the database role; the key only opens the API gateway.
  return createClient(url, key, {
    global: { headers: { Authorization: `Bearer ${token}` } },
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  });
}

/** Asks the database, as the caller, whether the caller is staff (and their email, for the history). */
async function checkStaff(env: ServerEnv, request: Request): Promise<StaffCheck> {
  const asCaller = callerClient(env, request);
  if (!asCaller) return { ok: false, status: 401, message: 'Sign in to use the back office.' };
  const { data, error } = await asCaller.rpc('require_staff');
  if (!error && typeof data === 'string') return { ok: true, email: data };
  if (error?.code === '42501') return { ok: false, status: 403, message: "You don't have access to the back office." };
  return { ok: false, status: 401, message: 'Your sign-in has expired. Please sign in again.' };
}

/** What a back-office endpoint's action is given: the request, the environment, who is asking and the checked body. */
export interface StaffCall<T> {
  request: Request;
  env: ServerEnv;
  staffEmail: string;
  body: T;
}

/**
 * A back-office endpoint: staff only (asked of the database with the caller's own token), its JSON body read
 * within the size limit and checked against `schema`; only then does `action` run.
 */
export function staffEndpoint<T>(schema: ZodType<T>, action: (call: StaffCall<T>) => Promise<Response>): FunctionHandler {
  return handle(async (request) => {
    const env = readServerEnv();
    const staff = await checkStaff(env, request);
    if (!staff.ok) return problem(staff.status, staff.message);
    const parsed = await readJsonBody(request, schema);
    if ('response' in parsed) return parsed.response;
    return action({ request, env, staffEmail: staff.email, body: parsed.data });
  });
}

/** A refund (or an invoice's credit) asked for more than is left of the payment: what can still be, or that none can. */
export function moreThanIsLeft(verb: 'refund' | 'credit', what: string, remaining: number): string {
  if (remaining > 0) return `You can ${verb} at most ${formatPrice(remaining)} on ${what}: that is what is left of its payment.`;
  return `${what.charAt(0).toUpperCase()}${what.slice(1)} has nothing left to ${verb}.`;
}

/** What the publisher is told: an HTTP status and one sentence. */
export interface ActionOutcome {
  status: number;
  message: string;
}

async function recordEvent(db: SupabaseClient, orderId: string, action: string, detail: string, actor: string): Promise<void> {
  const { error } = await db.from('order_events').insert({ order_id: orderId, action, detail: detail.slice(0, 500), actor });
  if (error) throw error;
}

export interface BackOfficeContext {
  db: SupabaseClient;
  services: FulfilmentServices;
  /** The staff member's email, for the order's history. */
  actor: string;
  /** The database as the staff member (their token), for the changes the database checks them for itself. */
  asCaller?: SupabaseClient | null;
}

export async function runOrderAction(ctx: BackOfficeContext, action: OrderAction): Promise<ActionOutcome> {
  const order = await getOrder(ctx.db, action.orderId);
  if (!order) return { status: 404, message: 'We could not find that order.' };
  const number = order.number;
  switch (action.action) {
    case 'ship': {
      const shipment = { p_order_id: order.id, p_tracking_number: action.shipment.trackingNumber, p_carrier: action.shipment.carrier, p_actor: ctx.actor };
      const result = await rpc(ctx.db, 'ship_order', shipment, z.enum(DB_OUTCOMES.ship_order));
      if (result === 'not_shippable') return { status: 409, message: 'Only a paid order that has not been delivered or cancelled can be shipped.' };
      return sendShippingEmailOnce(ctx, order.id, number);
    }
    case 'deliver': {
      const result = await rpc(ctx.db, 'mark_order_delivered', { p_order_id: order.id, p_actor: ctx.actor }, z.enum(DB_OUTCOMES.mark_order_delivered));
      if (result === 'not_shipped') return { status: 409, message: 'Only a shipped order can be marked as delivered.' };
      return { status: 200, message: `Order ${number} marked as delivered.` };
    }
    case 'cancel': {
      const result = await rpc(ctx.db, 'cancel_paid_order', { p_order_id: order.id, p_actor: ctx.actor }, z.enum(DB_OUTCOMES.cancel_paid_order));
      if (result === 'not_cancellable') return { status: 409, message: 'Only a paid order that has not shipped can be cancelled and refunded.' };
      if (result === 'on_account') return { status: 409, message: `Order ${number} is a school's or parish's invoice: void the invoice, or give money back with a credit note on it.` };
      // The cancellation put the copies back: the cached live stock is out of date.
      await purgeLiveCatalog(ctx.services.cdn, `cancelling order ${order.id}`);
      const stillThere = ctx.services.shipping ? await cancelAtPlatform(ctx.db, ctx.services.shipping, order.id) : null;
      // Where the copies go is the database's (a title's stock, or its pre-order allocation, or both in one order).
      const refunded = await refund(ctx, order.id, number, `Order ${number} cancelled and its copies put back`);
      return stillThere ? { ...refunded, message: `${refunded.message} ${stillThere}` } : refunded;
    }
    case 'retry_refund': {
      if (order.paymentStatus !== 'refund_due' || order.refundedAt) return { status: 409, message: 'This order has no refund due.' };
      return refund(ctx, order.id, number, 'Refund retried');
    }
    case 'resend_confirmation': {
      if (!order.fulfilledAt || order.paymentStatus !== 'paid') return { status: 409, message: 'Only a paid order has a confirmation to resend.' };
      const email = confirmationEmail(await getOrderWithItems(ctx.db, order.id), ctx.services.siteOrigin, ctx.services.seller);
      // Sent on purpose a second time: a key of its own, so it is not taken for a retry of the first.
      await ctx.services.email.send({ ...email, idempotencyKey: `${email.idempotencyKey}-resent-${Date.now()}` });
      await recordEvent(ctx.db, order.id, 'confirmation_resent', order.customerEmail, ctx.actor);
      return { status: 200, message: `Confirmation resent to ${order.customerEmail}.` };
    }
    case 'refund_part':
      return refundPart(ctx, order, number, action.amountCents, action.reason);
    case 'change_address':
      return changeAddress(ctx, order.id, action.address);
    case 'send_to_platform': {
      const platform = ctx.services.shipping;
      if (!platform) return { status: 409, message: SHIPPING_PLATFORM_NOT_SET_UP };
      const sent = await sendToPlatformOnce(ctx.db, platform, order.id);
      switch (sent.outcome) {
        case 'sent':
          return { status: 200, message: `Order ${number} is at the shipping platform now.` };
        case 'already':
          return { status: 200, message: `Order ${number} is already at the shipping platform; it was not sent twice.` };
        case 'busy':
          return { status: 409, message: `Order ${number} is being sent to the shipping platform just now. Look again in a minute.` };
        case 'not_to_pack':
          return { status: 409, message: 'Only an order to pack (paid, or an invoice packed before payment) goes to the shipping platform.' };
        case 'failed':
          return { status: 502, message: `The shipping platform did not take order ${number}: ${sent.error ?? 'no answer'}. It will be tried again; you can also send it again.` };
      }
    }
  }
}

/**
 * Changes the delivery address (the database checks the caller is staff and the order has not shipped), then the
 * order at the shipping platform: the publisher is told in words when the platform still has, or printed, the old one.
 */
async function changeAddress(ctx: BackOfficeContext, orderId: string, address: Record<string, string>): Promise<ActionOutcome> {
  if (!ctx.asCaller) return { status: 401, message: 'Sign in to use the back office.' };
  const { data, error } = await ctx.asCaller.rpc('admin_change_address', { p_order_id: orderId, p_address: address });
  // The database's own words for an address it will not take (a line too long, no first line or city).
  if (error?.code === '22023') return { status: 400, message: error.message };
  if (error) throw error;
  const result = z.enum(DB_OUTCOMES.admin_change_address).parse(data);
  if (result === 'not_editable') return { status: 409, message: 'This order has shipped: its address can no longer be changed.' };
  const done = 'Delivery address changed; the old one is in the history.';
  if (result === 'unchanged' || !ctx.services.shipping) return { status: 200, message: done };
  const warning = await updatePlatformAddress(ctx.db, ctx.services.shipping, orderId);
  return { status: 200, message: warning ? `${done} ${warning}` : done };
}

const partRefundReservation = outcomeAnswer('begin_part_refund', {
  reserved: { refund_id: z.uuid(), remaining: z.coerce.number() },
  too_much: { remaining: z.coerce.number() },
  not_refundable: {},
});
const partRefundSettlement = z.object({
  outcome: z.enum(DB_OUTCOMES.settle_part_refund),
  remaining: z.coerce.number().optional(),
  fully_refunded: z.boolean().optional(),
});

/**
 * Refunds part of a paid order. The amount is reserved in the database first, under the order's row lock, so
 * two refunds at once can never add up to more than was paid; then the payment provider refunds it (the
 * reservation's id is the idempotency key, and rides with the refund so it can be found again) and the database
 * settles it and writes the history. The customer is emailed the amount, the reason and what they have paid
 * now. A part refund an earlier call left pending is settled first, so it no longer holds back what is left.
 */
async function refundPart(ctx: BackOfficeContext, order: Order, number: string, amountCents: number, reason: string): Promise<ActionOutcome> {
  await settleInterruptedPartRefunds(ctx, order, number);
  const amount = fromCents(amountCents);
  const reservation = await rpc(ctx.db, 'begin_part_refund', { p_order_id: order.id, p_amount: amount, p_reason: reason, p_actor: ctx.actor }, partRefundReservation);
  if (reservation.outcome === 'not_refundable') return { status: 409, message: 'Only a paid order that has not been refunded in full can be refunded in part.' };
  if (reservation.outcome === 'too_much') return { status: 409, message: moreThanIsLeft('refund', `order ${number}`, reservation.remaining) };
  const part = { refundId: reservation.refund_id, amount, reason };
  let answer: ProviderAnswer;
  try {
    if (!order.checkoutSessionId) throw new Error('the order has no payment session');
    answer = fromRefund(
      await ctx.services.payments.refundSession(order.checkoutSessionId, { orderId: order.id, idempotencyKey: `order-part-refund-${part.refundId}`, amountCents, reason, partRefundId: part.refundId }),
    );
  } catch (cause) {
    console.error(`[back office] part refund for ${order.id} failed`, cause);
    answer = { failure: cause instanceof Error ? cause.message : String(cause) };
  }
  return settlePartRefund(ctx, order, number, part, answer);
}

/** What the payment provider said of a part refund: made (its id), or why not. */
type ProviderAnswer = { providerRefundId: string } | { failure: string };

function fromRefund(refund: PaymentRefund): ProviderAnswer {
  return refund.status === 'failed' || refund.status === 'canceled' ? { failure: `refund ${refund.id} ${refund.status}` } : { providerRefundId: refund.id };
}

/** Records the provider's answer on the reserved part refund and, when it was made, emails the customer. */
async function settlePartRefund(ctx: BackOfficeContext, order: Order, number: string, part: { refundId: string; amount: number; reason: string }, answer: ProviderAnswer): Promise<ActionOutcome> {
  const failure = 'failure' in answer ? answer.failure : null;
  const providerRefundId = 'providerRefundId' in answer ? answer.providerRefundId : null;
  const settlement = await rpc(ctx.db, 'settle_part_refund', { p_refund_id: part.refundId, p_provider_refund_id: providerRefundId, p_failure: failure }, partRefundSettlement);
  const amount = part.amount;
  if (failure) return { status: 502, message: `The refund of ${formatPrice(amount)} on order ${number} did not go through (${failure}). Nothing was refunded; you can try again.` };
  const remaining = settlement.remaining ?? 0;
  try {
    await ctx.services.email.send(partRefundEmail(await getOrderWithItems(ctx.db, order.id), { ...part, remaining, providerRefundId }, ctx.services.siteOrigin, ctx.services.seller));
  } catch (cause) {
    console.error(`[back office] part refund email for ${order.id} failed`, cause);
    return { status: 200, message: `Refunded ${formatPrice(amount)} on order ${number}; ${formatPrice(remaining)} remains paid. The email to the customer failed: please write to them.` };
  }
  return {
    status: 200,
    message: settlement.fully_refunded
      ? `Refunded ${formatPrice(amount)} on order ${number}: it is now refunded in full. The customer has been emailed.`
      : `Refunded ${formatPrice(amount)} on order ${number}; ${formatPrice(remaining)} remains paid. The customer has been emailed.`,
  };
}

const pendingPartRefund = z.object({ id: z.uuid(), amount: z.coerce.number(), reason: z.string() });

/**
 * Part refunds on this order still pending well after they were reserved: the call that made them stopped
 * between the provider's answer and saving it. Each is looked up at the provider by its own id: a refund the
 * provider made is recorded (and the customer emailed) as if the call had finished; one it never made is
 * recorded as not gone through, and what it held back is free again.
 */
async function settleInterruptedPartRefunds(ctx: BackOfficeContext, order: Order, number: string): Promise<void> {
  const before = new Date(Date.now() - BACK_OFFICE.partRefundInterruptedAfterMs).toISOString();
  const { data, error } = await ctx.db.from('order_refunds').select('id, amount, reason').eq('order_id', order.id).eq('status', 'pending').lt('created_at', before);
  if (error) throw error;
  for (const pending of z.array(pendingPartRefund).parse(data)) {
    let answer: ProviderAnswer;
    try {
      const made = order.checkoutSessionId ? await ctx.services.payments.findPartRefund(order.checkoutSessionId, pending.id) : null;
      answer = made ? fromRefund(made) : { failure: 'the payment provider never made it' };
    } catch (cause) {
      // Still unknown: left pending, and asked again next time.
      console.error(`[back office] could not look up interrupted part refund ${pending.id} of ${order.id}`, cause);
      continue;
    }
    const outcome = await settlePartRefund(ctx, order, number, { refundId: pending.id, amount: pending.amount, reason: pending.reason }, answer);
    console.log(`[back office] interrupted part refund ${pending.id} of ${order.id} settled: ${outcome.message}`);
  }
}

/** One email per tracking number: the first tells the shopper it shipped, a later number is a correction. */
export async function sendShippingEmailOnce(
  ctx: Pick<BackOfficeContext, 'db' | 'actor'> & { services: Pick<FulfilmentServices, 'email' | 'siteOrigin'> },
  orderId: string,
  number: string,
): Promise<ActionOutcome> {
  const { data, error } = await ctx.db.rpc('claim_shipping_email', { p_order_id: orderId });
  if (error) throw error;
  const claim = z.object({ kind: z.enum(DB_OUTCOMES.claim_shipping_email), previous: z.string().nullable().optional() }).parse(data);
  if (claim.kind === 'none') return { status: 200, message: `Order ${number} is already shipped with this tracking number; the customer has it.` };
  const order = await getOrderWithItems(ctx.db, orderId);
  try {
    await ctx.services.email.send(shippingEmail(order, claim.kind, ctx.services.siteOrigin));
  } catch (cause) {
    console.error(`[back office] shipping email for ${orderId} failed`, cause);
    const released = await ctx.db.rpc('release_shipping_email', { p_order_id: orderId, p_previous: claim.previous ?? null });
    if (released.error) throw released.error;
    return { status: 502, message: `Order ${number} is marked as shipped, but the email to the customer failed. Confirm shipment again to resend it.` };
  }
  await recordEvent(ctx.db, orderId, 'shipping_emailed', `${order.trackingCarrier} ${order.trackingNumber}`, ctx.actor);
  return {
    status: 200,
    message:
      claim.kind === 'first' ? `Order ${number} marked as shipped; the customer has been emailed the tracking number.` : `Tracking number corrected; the customer has been emailed the correction.`,
  };
}

/**
 * Refunds the order in full through the payment provider (never twice: see refundInFull); the one caller that
 * records it emails the shopper. A failure is written to the history and leaves the order under Refunds due.
 */
async function refund(ctx: BackOfficeContext, orderId: string, number: string, done: string): Promise<ActionOutcome> {
  const order = await getOrder(ctx.db, orderId);
  if (!order) return { status: 404, message: 'We could not find that order.' };
  try {
    const { refundId, recorded } = await refundInFull(ctx.db, ctx.services.payments, order);
    if (!recorded) return { status: 200, message: `Order ${number} was already refunded.` };
    await recordEvent(ctx.db, orderId, 'refunded', refundId, ctx.actor);
    await sendOrderEmailOnce(ctx.db, ctx.services, orderId, 'refund', refundEmail);
    return { status: 200, message: `${done}; refund ${refundId} recorded and the customer emailed.` };
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    console.error(`[back office] refund for ${orderId} failed`, cause);
    await recordEvent(ctx.db, orderId, 'refund_failed', reason, ctx.actor);
    return { status: 502, message: `The refund for order ${number} did not go through (${reason}). It is listed under Refunds due: use Retry refund.` };
  }
}
