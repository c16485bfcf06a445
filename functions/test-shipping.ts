/**
 * LOCAL TEST SHIPPING PLATFORM PAGE — the stand-in for Starshipit's screens while the shop runs locally: the orders
 * the shop sent it, their TEST labels' tracking numbers, and buttons that post a tracking event to the shop's
 * webhook exactly as Starshipit would (its body, signed in X-Starshipit-Signature). Answers 404 anywhere but on
 * the local server without Starshipit keys.
 */
import { formatDateTime } from '../src/lib/format';
import { z } from 'zod';
import { readServerEnv } from '../src/config/env';
import { formatPrice } from '../src/lib/format';
import { handle, problem, readBodyText, type FunctionConfig } from './_lib/http';
import { escapeHtml } from '../src/lib/html';
import { testPage } from './_lib/test-page';
import { LOCAL_WEBHOOK_SECRET, localShipments, recordLocalEvent } from './_lib/providers/local-shipping';
import { selectShippingPlatform } from './_lib/providers/select';
import type { PlatformItem } from './_lib/providers/shipping-platform';
import { signStarshipitBody, STARSHIPIT_SIGNATURE_HEADER } from './_lib/providers/starshipit';

/** The page's buttons and the Starshipit status each one sends. */
export const TEST_EVENTS = [
  { label: 'Lodged', status: 'Dispatched' },
  { label: 'In transit', status: 'InTransit' },
  { label: 'Delivered', status: 'Delivered' },
] as const;

/** The button's words for a Starshipit status, as the page lists what it sent. */
const labelOf = (status: string) => TEST_EVENTS.find((e) => e.status === status)?.label ?? status;

const postSchema = z.object({ order: z.string().regex(/^[1-9][0-9]{0,9}$/), status: z.enum(['Dispatched', 'InTransit', 'Delivered']) });

/** One item as the platform lists it; abroad, with what its customs declaration says (tariff code, origin, value per copy). */
function itemLine(item: PlatformItem): string {
  const customs = item.tariffCode || item.countryOfOrigin;
  const parts = [`${item.quantity} × ${item.description}`];
  if (item.tariffCode) parts.push(`HS ${item.tariffCode}`);
  if (item.countryOfOrigin) parts.push(`made in ${item.countryOfOrigin}`);
  if (customs) parts.push(`${formatPrice(item.value)} each`);
  return escapeHtml(parts.join(' · '));
}

const CSS =
  'body{font-family:system-ui,sans-serif;background:#f1f5f9;color:#1e293b;margin:0;padding:16px}main{max-width:960px;margin:0 auto}h1{color:#1e3a5f}.test{background:#b91c1c;color:#fff;font-weight:800;letter-spacing:.05em;text-align:center;border-radius:8px;padding:10px;margin-bottom:20px}article{background:#fff;border-radius:12px;padding:16px;margin-bottom:12px;box-shadow:0 2px 8px #0001}h2{margin:0 0 4px;font-size:18px}p{margin:4px 0}.muted{color:#475569}.actions{display:flex;flex-wrap:wrap;gap:8px;margin-top:10px}button{padding:10px 16px;border-radius:999px;font-weight:700;font-size:15px;cursor:pointer;border:2px solid #1e3a5f;background:#1e3a5f;color:#fff}button:disabled{opacity:.45;cursor:not-allowed}[role=status]{background:#dcfce7;border-radius:8px;padding:10px;margin-bottom:12px}ul{margin:6px 0;padding-left:20px}:focus-visible{outline:3px solid #8a5d00;outline-offset:2px}';

const page = (body: string, status = 200) => testPage('TEST shipping platform', CSS, `<p class="test">TEST SHIPPING PLATFORM — no label is bought, nothing is posted</p>${body}`, status);

export default handle(async (request) => {
  const env = readServerEnv();
  if (selectShippingPlatform(env)?.name !== 'local-test') return problem(404, 'The test shipping platform is not available on this site.');
  const url = new URL(request.url);
  const shipments = (await localShipments()).reverse();

  if (request.method === 'POST') {
    const parsed = postSchema.safeParse(Object.fromEntries(new URLSearchParams(await readBodyText(request))));
    if (!parsed.success) return problem(400, 'Choose an order and a tracking event.');
    const shipment = shipments.find((s) => s.order.orderNumber === parsed.data.order);
    if (!shipment) return problem(404, `The test platform has no order ${parsed.data.order}.`);
    if (!shipment.label) return problem(409, `Order ${parsed.data.order} has no label yet: print it from /admin first.`);
    const now = new Date().toISOString();
    // Starshipit's webhook body and signature, as its documentation shows them.
    const body = JSON.stringify({
      order_number: shipment.order.orderNumber,
      carrier_name: shipment.label.carrier,
      carrier_service: shipment.label.service,
      shipment_date: shipment.receivedAt,
      tracking_number: shipment.label.trackingNumber,
      tracking_status: parsed.data.status,
      last_updated_date: now,
    });
    const signature = signStarshipitBody(env.STARSHIPIT_WEBHOOK_SECRET ?? LOCAL_WEBHOOK_SECRET, body);
    const answer = await fetch(new URL('/api/shipping-webhook', url.origin), {
      method: 'POST',
      headers: { 'content-type': 'application/json', [STARSHIPIT_SIGNATURE_HEADER]: signature },
      body,
    });
    if (!answer.ok) return problem(502, `The shop's webhook answered ${answer.status}: ${await answer.text()}`);
    await recordLocalEvent(shipment.platformOrderId, parsed.data.status, undefined, { body, signature });
    const back = new URL(url.pathname, url.origin);
    back.searchParams.set('sent', `${labelOf(parsed.data.status)} ${shipment.order.orderNumber}`);
    return Response.redirect(back.href, 303);
  }

  const sent = url.searchParams.get('sent');
  const articles = shipments
    .slice(0, 100)
    .map((s) => {
      const d = s.order.destination;
      const events = s.events.map((e) => `<li>${escapeHtml(labelOf(e.status))} — ${escapeHtml(formatDateTime(e.at))}</li>`).join('');
      const buttons = TEST_EVENTS.map(
        (e) => `<button type="submit" name="status" value="${e.status}"${s.label ? '' : ' disabled'} aria-label="${escapeHtml(`${e.label}: order ${s.order.orderNumber}`)}">${e.label}</button>`,
      ).join('');
      return `<article data-order="${escapeHtml(s.order.orderNumber)}"><h2>Order ${escapeHtml(s.order.orderNumber)}</h2>
<p>${d.company ? `<strong>${escapeHtml(d.company)}</strong>, Attn: ` : ''}${escapeHtml(d.name)} — ${escapeHtml([d.street, d.city, d.state, d.postCode, d.country].filter(Boolean).join(', '))}</p>
<p class="muted">${escapeHtml(s.order.shippingMethod)} · ${s.order.items.map(itemLine).join(', ')}</p>
<p>${s.label ? `Label printed: <strong>${escapeHtml(s.label.carrier)} ${escapeHtml(s.label.trackingNumber)}</strong>` : 'No label printed yet: print it from /admin.'}</p>
${events ? `<ul aria-label="Tracking events sent">${events}</ul>` : ''}
<form method="post" class="actions"><input type="hidden" name="order" value="${escapeHtml(s.order.orderNumber)}">${buttons}</form></article>`;
    })
    .join('');
  return page(
    `<h1>Orders at the shipping platform</h1>
<p>This page stands in for Starshipit while the shop runs locally: the orders the shop sent, and tracking events to post back to it.</p>
${sent ? `<p role="status">Sent ${escapeHtml(sent)} to the shop.</p>` : ''}
${articles || '<p>No order has been sent here yet: pay for an order first.</p>'}`,
  );
});

export const config: FunctionConfig = { path: '/api/test-shipping', method: ['GET', 'POST'] };
