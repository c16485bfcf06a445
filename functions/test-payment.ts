/**
 * LOCAL TEST PAYMENT PAGE — the stand-in for Stripe's hosted checkout when no Stripe key is set. Shows the
 * items and total the server computed, and Pay / Cancel. Answers 404 anywhere but on the local server. Its box
 * counts its padding in its width, so it fits a 375 px phone.
 */
import { z } from 'zod';
import { readServerEnv } from '../src/config/env';
import { formatPrice } from '../src/lib/format';
import { remindUnpaidCheckout } from './_lib/checkout-reminder';
import { fromCents, toCents } from '../src/lib/money';
import { fulfilmentServices, fulfilOrder } from './_lib/fulfilment';
import { handle, problem, readBodyText, type FunctionConfig } from './_lib/http';
import { escapeHtml } from '../src/lib/html';
import { standInId, testPage } from './_lib/test-page';
import { adoptPayerName, cancelUnpaid, findOrderBySession, getOrderItems } from './_lib/orders';
import { LOCAL_SESSION_PREFIX, pageClosed } from './_lib/providers/local-payments';
import { testPaymentsInUse } from './_lib/providers/select';
import { serviceClient } from './_lib/supabase-admin';

const params = z.object({
  session: standInId(LOCAL_SESSION_PREFIX),
  success: z.url(),
  cancel: z.url(),
  /** The cardholder's name, as the card payment page asks for it. */
  payer: z.string().max(200).optional(),
});

const CSS =
  'body{font-family:system-ui,sans-serif;background:#fff8ee;color:#1e293b;margin:0;display:grid;place-items:center;min-height:100vh}main{background:#fff;border-radius:16px;padding:32px;max-width:520px;width:calc(100% - 32px);box-sizing:border-box;box-shadow:0 4px 24px #0001}@media (max-width:480px){main{padding:20px 16px}}h1{color:#1e3a5f;margin-top:0}.test{background:#b91c1c;color:#fff;font-weight:800;letter-spacing:.05em;text-align:center;border-radius:8px;padding:10px;margin-bottom:20px}table{width:100%;border-collapse:collapse;margin:16px 0}td,th{padding:8px 4px;border-bottom:1px solid #e2e8f0;text-align:left;overflow-wrap:anywhere}td:last-child,th:last-child{text-align:right;white-space:nowrap;overflow-wrap:normal}tfoot td{font-weight:700}.actions{display:flex;gap:12px;margin-top:20px}button{flex:1;padding:12px;border-radius:999px;font-weight:700;font-size:16px;cursor:pointer;border:2px solid #1e3a5f}button[value=pay]{background:#1e3a5f;color:#fff}button[value=cancel]{background:#fff;color:#1e3a5f}label{font-weight:700}input[name=payer]{width:100%;box-sizing:border-box;padding:10px;margin-top:6px;border:1px solid #64748b;border-radius:8px;font-size:16px}:focus-visible{outline:3px solid #8a5d00;outline-offset:2px}';

const page = (title: string, body: string, status = 200) => testPage(title, CSS, body, status);

export default handle(async (request) => {
  const env = readServerEnv();
  if (!testPaymentsInUse(env)) return problem(404, 'Test payments are not available on this site.');
  const url = new URL(request.url);
  const source = Object.fromEntries(request.method === 'POST' ? new URLSearchParams(await readBodyText(request)) : url.searchParams);
  const parsed = params.safeParse(source);
  if (!parsed.success) return problem(400, 'This test payment link is incomplete or damaged.');
  const { session, success, cancel } = parsed.data;
  if (new URL(success).origin !== url.origin || new URL(cancel).origin !== url.origin) return problem(400, 'Return addresses must be on this site.');

  const db = serviceClient(env);
  const order = await findOrderBySession(db, session);
  if (!order) return problem(404, 'No test payment session with that id.');

  const closedPage = (status: number) =>
    page(
      'TEST payment',
      `<p class="test">TEST PAYMENT — no real money moves</p><h1>This payment page has closed</h1><p role="status">Nothing was paid. <a href="${escapeHtml(cancel)}">Go back to the shop</a> to check out again.</p>`,
      status,
    );
  // Closed because the same cart was checked out again (as Stripe's page of an expired session): no payment, no reminder.
  if (order.replacedAt && order.paymentStatus === 'expired') return closedPage(410);

  if (request.method === 'POST') {
    if (source.action === 'cancel') {
      // Leaving this page unpaid stands in for Stripe's expired session: the order is cancelled, and a shopper
      // who agreed to it gets the one reminder.
      await cancelUnpaid(db, order.id);
      await remindUnpaidCheckout(db, fulfilmentServices(env, request), order.id);
      return Response.redirect(cancel, 303);
    }
    if (pageClosed(order)) {
      // Past its expiry, as Stripe's page would be: its hold on a code has ended, so it takes no payment.
      await cancelUnpaid(db, order.id);
      return closedPage(410);
    }
    await adoptPayerName(db, order, parsed.data.payer);
    await fulfilOrder(db, fulfilmentServices(env, request), order.id);
    return Response.redirect(success.replace('{CHECKOUT_SESSION_ID}', encodeURIComponent(session)), 303);
  }

  const items = await getOrderItems(db, order.id);
  // Each line at the price per copy the order was priced at (a quantity price when one was reached).
  const rows = items
    .map((i) => `<tr><td>${escapeHtml(i.title)} × ${i.quantity} at ${formatPrice(i.unitPrice)} each</td><td>${formatPrice(fromCents(toCents(i.unitPrice) * i.quantity))}</td></tr>`)
    .join('');
  const discount = order.promotionCode && order.discount > 0 ? `<tr><td>Code ${escapeHtml(order.promotionCode)}</td><td>−${formatPrice(order.discount)}</td></tr>` : '';
  const hidden = (name: string, value: string) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;
  const settled = order.paymentStatus !== 'unpaid';
  return page(
    'TEST payment',
    `<p class="test">TEST PAYMENT — no real money moves</p>
<h1>Pay for your order</h1>
<p>This page stands in for the card payment provider while the shop runs locally.</p>
<table><thead><tr><th scope="col">Item</th><th scope="col">Amount</th></tr></thead><tbody>${rows}${discount}
<tr><td>Shipping: ${escapeHtml(order.shippingMethod.name ?? 'Standard')}</td><td>${formatPrice(order.shippingAmount)}</td></tr></tbody>
<tfoot><tr><td>Total (AUD)</td><td>${formatPrice(order.total)}</td></tr></tfoot></table>
${settled ? `<p role="status">This order is already ${escapeHtml(order.paymentStatus)}.</p>` : ''}
<form method="post">${hidden('session', session)}${hidden('success', success)}${hidden('cancel', cancel)}
<p><label for="payer">Name on card</label><br><input id="payer" name="payer" autocomplete="cc-name" maxlength="100" value="${escapeHtml(order.buyerName ?? '')}"></p>
<div class="actions"><button type="submit" name="action" value="cancel">Cancel</button><button type="submit" name="action" value="pay"${settled ? ' disabled' : ''}>Pay ${formatPrice(order.total)}</button></div></form>`,
  );
});

export const config: FunctionConfig = { path: '/api/test-payment', method: ['GET', 'POST'] };
