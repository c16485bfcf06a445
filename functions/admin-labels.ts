/**
 * Prints shipping labels from /admin: one order's, or the orders to pack (the To pack list's, by the database's rule), as
 * one PDF (one label a page); every order not printed is named, with why. Each label
 * ships its order with the platform's tracking number, and the shopper gets the tracking email as when a number is
 * typed. Staff only.
 */
import { z } from 'zod';
import { shopDay } from '../src/lib/format';
import { sendShippingEmailOnce, staffEndpoint } from './_lib/back-office';
import { fulfilmentServices } from './_lib/fulfilment';
import { json, problem, type FunctionConfig } from './_lib/http';
import { SHIPPING_PLATFORM_NOT_SET_UP } from './_lib/providers/select';
import { joinLabels, printLabel, type LabelOutcome } from './_lib/shipments';
import { rpc, serviceClient } from './_lib/supabase-admin';

/** At most this many labels in one PDF: a bench's day, well inside a function's time. */
export const MAX_LABELS = 50;

const bodySchema = z.union([
  z.object({ orderIds: z.array(z.uuid('orderIds must be order ids')).min(1, 'Choose at least one order.').max(MAX_LABELS, `At most ${MAX_LABELS} labels at a time.`) }),
  z.object({ toPack: z.literal(true) }),
]);

export default staffEndpoint(bodySchema, async ({ request, env, staffEmail, body }) => {
  const services = fulfilmentServices(env, request);
  const platform = services.shipping;
  if (!platform) return problem(409, SHIPPING_PLATFORM_NOT_SET_UP);
  const db = serviceClient(env);
  let ids: string[];
  // The numbers of the orders to pack past one run's labels: named, so none is left without a word.
  let later: string[] = [];
  if ('orderIds' in body) ids = body.orderIds;
  else {
    // The To pack list's own orders, oldest first: the database's one rule (paid, or an invoice packed before payment).
    const toPack = await rpc(db, 'orders_to_pack', { p_limit: 1000 }, z.array(z.object({ id: z.string(), number: z.string() })));
    if (toPack.length === 0) return problem(409, 'There is no order to pack, so no label to print.');
    ids = toPack.slice(0, MAX_LABELS).map((o) => o.id);
    later = toPack.slice(MAX_LABELS).map((o) => o.number);
  }
  const outcomes: LabelOutcome[] = [];
  // One after the other: the platform limits requests a second, and each label takes the order's lock.
  for (const id of ids) outcomes.push(await printLabel(db, platform, id, staffEmail));
  const printed = outcomes.filter((o) => o.ok);
  const failed = outcomes.filter((o) => !o.ok);
  const emailFailures: string[] = [];
  for (const o of printed) {
    if (o.shipped === 'unchanged') continue;
    const emailed = await sendShippingEmailOnce({ db, services, actor: staffEmail }, o.orderId, o.number);
    if (emailed.status >= 400) emailFailures.push(emailed.message);
  }
  const left = later.length
    ? [`Not printed yet, ${later.length === 1 ? 'order' : 'orders'} ${later.join(', ')}: at most ${MAX_LABELS} labels at a time, so print again for ${later.length === 1 ? 'it' : 'them'}.`]
    : [];
  if (printed.length === 0) return problem(502, [...failed.map((f) => f.message), ...left].join(' '));
  // The file says which parcels it holds, so a saved PDF can be matched to its orders.
  const pdf = await joinLabels(
    printed.flatMap((o) => o.pdfs),
    printed.map((o) => `Order ${o.number}: ${o.carrier} ${o.trackingNumber}`).join('; '),
  );
  // Each order is named: those printed, and each not printed with why.
  const what =
    printed.length === 1
      ? `The label of order ${printed[0]!.number} is ready (${printed[0]!.carrier} ${printed[0]!.trackingNumber}).`
      : `${printed.length} labels are ready, for orders ${printed.map((o) => o.number).join(', ')}.`;
  const notPrinted = failed.length + later.length;
  return json({
    message: [what, ...(notPrinted ? [`${notPrinted} not printed:`] : []), ...failed.map((f) => f.message), ...left, ...emailFailures].join(' '),
    pdf: Buffer.from(pdf).toString('base64'),
    fileName: printed.length === 1 ? `label-${printed[0]!.number}.pdf` : `labels-${shopDay()}.pdf`,
    printed: printed.map((o) => ({ orderId: o.orderId, number: o.number, trackingNumber: o.trackingNumber, carrier: o.carrier })),
    failed: failed.map((o) => ({ orderId: o.orderId, number: o.number, message: o.message })),
  });
});

export const config: FunctionConfig = { path: '/api/admin-labels', method: ['POST'], rateLimit: { windowLimit: 30, windowSize: 60, aggregateBy: ['ip', 'domain'] } };
