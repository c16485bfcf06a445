/**
 * The Stripe Invoicing adapter, through the real `stripe` package, against a local server answering /v1/customers,
 * /v1/invoices, /v1/invoiceitems and /v1/credit_notes as Stripe's API reference shows (tests/helpers/
 * fake-stripe-invoicing.ts): what the shop sends (send_invoice, days_until_due, the PO number as a custom field, the
 * seller and ABN in the footer, the shop's ids in metadata, AUD lines), a customer reused by email, a retried send
 * that makes no second invoice, Stripe's refusals and failures as ProviderErrors, and signed invoice events.
 */
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { ProviderError, WebhookSignatureError } from '../../../functions/_lib/providers/errors';
import type { ProviderInvoiceInput } from '../../../functions/_lib/providers/invoicing';
import { createStripeInvoicing } from '../../../functions/_lib/providers/stripe-invoicing';
import { useFakeProvider } from '../../helpers/fake-provider';
import { fakeStripeInvoicing, type FakeStripeInvoicing } from '../../helpers/fake-stripe-invoicing';

const SECRET_KEY = 'sk_test_51LocalFakeKey';
const WEBHOOK_SECRET = 'whsec_test_local_secret';
const fake = useFakeProvider({ parseBody: (raw, { method, url }) => new URLSearchParams(method === 'GET' ? url.search : raw) });

async function fakeStripe(): Promise<{ stripe: FakeStripeInvoicing; options: Stripe.StripeConfig }> {
  const stripe = fakeStripeInvoicing();
  const { port } = await fake.start((seen, response) => {
    if (seen.headers.authorization !== `Bearer ${SECRET_KEY}`) {
      response.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { type: 'invalid_request_error', message: 'Invalid API Key provided: sk_test_***rong' } }));
      return;
    }
    stripe.handler(seen, response);
  });
  return { stripe, options: { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0, telemetry: false } };
}

const INPUT: ProviderInvoiceInput = {
  shopInvoiceId: '6f1c2f4e-6d0b-4d8e-9d6a-2b7e0c1a9f01',
  number: 'INV-0007',
  orderId: '0c1d2e3f-4a5b-4c6d-8e7f-901a2b3c4d5e',
  customer: {
    email: 'office@stmarys.example.com',
    organisation: "St Mary's Primary",
    contactName: 'Ann Office',
    phone: '02 9999 0000',
    address: { line1: '1 School Rd', line2: null, city: 'Parramatta', state: 'NSW', postcode: '2150', country: 'AU' },
  },
  lines: [{ description: 'Class Book × 30 at $16.00 each', amountCents: 48000 }],
  shipping: { name: 'AU Standard Courier', amountCents: 1500 },
  totalCents: 49500,
  daysUntilDue: 30,
  issuedOn: '2026-11-28',
  poNumber: 'PO-7781',
  footer: 'Awesome Catholic Kids Pty Ltd · ABN 51 824 753 556. Total includes GST of $45.00.',
};

describe('Stripe Invoicing adapter', () => {
  it('makes the invoice as the shop describes it, then finalises and emails it', async () => {
    const { stripe, options } = await fakeStripe();
    const invoicing = createStripeInvoicing({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, stripeOptions: options });
    const made = await invoicing.createInvoice(INPUT);
    expect(made).toMatchObject({ status: 'draft', totalCents: 49500, currency: 'aud', hostedUrl: null, shopInvoiceId: INPUT.shopInvoiceId });
    const invoice = stripe.invoices.get(made.id)!;
    expect(invoice).toMatchObject({
      collection_method: 'send_invoice',
      days_until_due: 30,
      currency: 'aud',
      custom_fields: [{ name: 'PO number', value: 'PO-7781' }],
      description: "Tax invoice INV-0007 for St Mary's Primary, issued 28 November 2026",
      footer: INPUT.footer,
      pending_invoice_items_behavior: 'exclude',
      metadata: { shop_invoice_id: INPUT.shopInvoiceId, order_id: INPUT.orderId, shop_invoice_number: 'INV-0007' },
      lines: [
        { amount: 48000, description: 'Class Book × 30 at $16.00 each' },
        { amount: 1500, description: 'Shipping: AU Standard Courier' },
      ],
    });
    expect([...stripe.customers.values()]).toMatchObject([{ email: 'office@stmarys.example.com', name: "St Mary's Primary" }]);
    // Every write carries an idempotency key of the shop's invoice.
    const writes = fake.seen.filter((s) => s.method === 'POST');
    expect(writes.every((s) => String(s.headers['idempotency-key'] ?? '').startsWith(`invoice-${INPUT.shopInvoiceId}`))).toBe(true);

    const sent = await invoicing.sendInvoice(made.id);
    expect(sent).toMatchObject({ status: 'open', hostedUrl: expect.stringContaining(made.id) });
    expect(stripe.invoices.get(made.id)?.sent).toBe(1);
    // A reminder: the open invoice emailed again, not finalised twice.
    await invoicing.sendInvoice(made.id);
    expect(stripe.invoices.get(made.id)?.sent).toBe(2);
  });

  it('reuses the customer with the same email; a retried create makes no second invoice; no PO number, no custom field', async () => {
    const { stripe, options } = await fakeStripe();
    const invoicing = createStripeInvoicing({ secretKey: SECRET_KEY, stripeOptions: options });
    const first = await invoicing.createInvoice(INPUT);
    const again = await invoicing.createInvoice(INPUT);
    expect(again.id).toBe(first.id);
    expect(stripe.invoices.size).toBe(1);
    const other = await invoicing.createInvoice({ ...INPUT, shopInvoiceId: '7a1c2f4e-6d0b-4d8e-9d6a-2b7e0c1a9f02', poNumber: null, shipping: { name: 'Free', amountCents: 0 }, totalCents: 48000 });
    expect(stripe.customers.size).toBe(1);
    expect(stripe.invoices.get(other.id)).toMatchObject({ customer: stripe.invoices.get(first.id)?.customer, custom_fields: null, lines: [{ amount: 48000 }] });
  });

  it('an invoice whose total is not the shop’s is not trusted', async () => {
    const { options } = await fakeStripe();
    const invoicing = createStripeInvoicing({ secretKey: SECRET_KEY, stripeOptions: options });
    await expect(invoicing.createInvoice({ ...INPUT, totalCents: 49501 })).rejects.toMatchObject({ provider: 'stripe', code: 'invalid-response' });
  });

  it('refusals and failures are ProviderErrors with Stripe’s status: 400 invalid_request_error, 401, 429, 500, and no answer in time', async () => {
    const { stripe, options } = await fakeStripe();
    const invoicing = createStripeInvoicing({ secretKey: SECRET_KEY, stripeOptions: options });
    stripe.failNext(/^POST \/v1\/invoices$/, { status: 400, error: { type: 'invalid_request_error', code: 'parameter_invalid_integer', message: 'Invalid integer: days_until_due' } });
    await expect(invoicing.createInvoice(INPUT)).rejects.toMatchObject({ status: 400, code: 'rejected', message: expect.stringContaining('days_until_due') });
    await expect(createStripeInvoicing({ secretKey: 'sk_test_wrong', stripeOptions: options }).createInvoice(INPUT)).rejects.toMatchObject({ status: 401 });
    stripe.failNext(/^POST \/v1\/invoiceitems$/, { status: 429, error: { type: 'rate_limit_error', code: 'rate_limit', message: 'Too many requests.' } });
    await expect(invoicing.createInvoice(INPUT)).rejects.toMatchObject({ status: 429 });
    stripe.failNext(/^POST \/v1\/invoices\/.+\/send$/, { status: 500, error: { type: 'api_error', message: 'An unknown error occurred' } });
    const made = await invoicing.createInvoice(INPUT);
    await expect(invoicing.sendInvoice(made.id)).rejects.toMatchObject({ status: 500 });
    // Sent again after the failure: finalised once, emailed once.
    expect((await invoicing.sendInvoice(made.id)).status).toBe('open');
    expect(stripe.invoices.get(made.id)?.sent).toBe(1);

    stripe.failNext(/^POST \/v1\/invoices\/.+\/void$/, 'hang');
    const slow = createStripeInvoicing({ secretKey: SECRET_KEY, stripeOptions: { ...options, timeout: 200 } });
    const error = await slow.voidInvoice(made.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code: 'network', status: 504 });
  });

  it('voids, writes off and credits; a paid invoice cannot be voided', async () => {
    const { stripe, options } = await fakeStripe();
    const invoicing = createStripeInvoicing({ secretKey: SECRET_KEY, stripeOptions: options });
    const a = await invoicing.createInvoice(INPUT);
    await invoicing.sendInvoice(a.id);
    expect((await invoicing.voidInvoice(a.id)).status).toBe('void');
    const b = await invoicing.createInvoice({ ...INPUT, shopInvoiceId: '8a1c2f4e-6d0b-4d8e-9d6a-2b7e0c1a9f03' });
    await invoicing.sendInvoice(b.id);
    expect((await invoicing.markUncollectible(b.id)).status).toBe('uncollectible');
    const c = await invoicing.createInvoice({ ...INPUT, shopInvoiceId: '9a1c2f4e-6d0b-4d8e-9d6a-2b7e0c1a9f04' });
    await invoicing.sendInvoice(c.id);
    stripe.invoices.get(c.id)!.status = 'paid';
    await expect(invoicing.voidInvoice(c.id)).rejects.toMatchObject({ status: 400 });
    const note = await invoicing.createCreditNote(c.id, { amountCents: 3000, reason: 'Two damaged copies', creditId: 'credit-1', idempotencyKey: 'invoice-credit-credit-1' });
    expect(note.id).toMatch(/^cn_/);
    expect(stripe.creditNotes).toMatchObject([{ invoice: c.id, refund_amount: 3000, memo: 'Two damaged copies', metadata: { credit_id: 'credit-1' }, idempotencyKey: 'invoice-credit-credit-1' }]);
    const sent = fake.seen.find((s) => s.url.pathname === '/v1/credit_notes')!.body;
    expect(Object.fromEntries(sent)).toMatchObject({ 'lines[0][type]': 'custom_line_item', 'lines[0][unit_amount]': '3000', 'lines[0][quantity]': '1', reason: 'order_change' });
  });

  it('reads signed invoice events; ignores others; refuses a bad signature', async () => {
    const invoicing = createStripeInvoicing({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, stripeOptions: { host: '127.0.0.1', port: 9, protocol: 'http' } });
    const event = (type: string, object: unknown) => JSON.stringify({ id: `evt_${type}`, object: 'event', type, data: { object } });
    const sign = (payload: string, secret = WEBHOOK_SECRET) => Stripe.webhooks.generateTestHeaderStringAsync({ payload, secret });
    const invoice = {
      id: 'in_1',
      object: 'invoice',
      status: 'paid',
      total: 49500,
      currency: 'aud',
      hosted_invoice_url: 'https://invoice.stripe.com/i/x',
      metadata: { shop_invoice_id: INPUT.shopInvoiceId },
    };
    const paid = event('invoice.paid', invoice);
    expect(await invoicing.parseWebhook(paid, await sign(paid))).toEqual({
      id: 'evt_invoice.paid',
      type: 'invoice.paid',
      action: 'paid',
      invoice: { id: 'in_1', status: 'paid', totalCents: 49500, currency: 'aud', hostedUrl: 'https://invoice.stripe.com/i/x', shopInvoiceId: INPUT.shopInvoiceId },
    });
    for (const [type, action] of [
      ['invoice.voided', 'void'],
      ['invoice.marked_uncollectible', 'uncollectible'],
      ['invoice.payment_failed', 'payment_failed'],
    ] as const) {
      const body = event(type, { ...invoice, status: 'open' });
      expect(await invoicing.parseWebhook(body, await sign(body))).toMatchObject({ action });
    }
    const other = event('checkout.session.completed', { id: 'cs_1', object: 'checkout.session' });
    expect(await invoicing.parseWebhook(other, await sign(other))).toBeNull();
    await expect(invoicing.parseWebhook(paid, await sign(paid, 'whsec_other'))).rejects.toBeInstanceOf(WebhookSignatureError);
    await expect(invoicing.parseWebhook(paid, null)).rejects.toBeInstanceOf(WebhookSignatureError);
    const unreadable = event('invoice.paid', { id: 'in_1' });
    await expect(invoicing.parseWebhook(unreadable, await sign(unreadable))).rejects.toMatchObject({ code: 'invalid-response' });
  });
});
