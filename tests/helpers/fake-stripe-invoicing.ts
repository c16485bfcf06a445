/**
 * Stripe's Invoicing API as a test needs it, answering as Stripe's API reference shows: customers (listed by email,
 * created), invoices (created as drafts, their items added, finalised, sent, voided, written off), and credit
 * notes; form-encoded parameters in, JSON out, { error: { type, message, code } } on failure, and a request sent
 * again with the same Idempotency-Key answered as the first time. A test may make the next matching request fail.
 */
import type { ServerResponse } from 'node:http';
import { sendJson, type Handler, type Seen } from './fake-provider';

export interface FakeInvoice {
  id: string;
  object: 'invoice';
  customer: string;
  status: 'draft' | 'open' | 'paid' | 'void' | 'uncollectible';
  currency: string;
  total: number;
  collection_method: string | null;
  days_until_due: number | null;
  footer: string | null;
  description: string | null;
  custom_fields: Array<{ name: string; value: string }> | null;
  metadata: Record<string, string>;
  hosted_invoice_url: string | null;
  pending_invoice_items_behavior: string | null;
  lines: Array<{ amount: number; description: string }>;
  /** How many times Stripe emailed it. */
  sent: number;
}

export interface FakeStripeInvoicing {
  customers: Map<string, { id: string; email: string; name: string | null }>;
  invoices: Map<string, FakeInvoice>;
  creditNotes: Array<{ id: string; invoice: string; refund_amount: number; memo: string | null; metadata: Record<string, string>; idempotencyKey: string | undefined }>;
  /** The next request whose "METHOD /path" matches fails with this answer (or never answers). */
  failNext: (match: RegExp, failure: { status: number; error: { type: string; message: string; code?: string } } | 'hang') => void;
  handler: Handler<URLSearchParams>;
}

/** Stripe's bracketed form keys (metadata[order_id], custom_fields[0][name]) as an object. */
function bracketed(params: URLSearchParams, prefix: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of params) {
    const match = key.match(new RegExp(`^${prefix}\\[([^\\]]+)\\]$`));
    if (match?.[1]) out[match[1]] = value;
  }
  return out;
}

function customFields(params: URLSearchParams): Array<{ name: string; value: string }> | null {
  const fields: Array<{ name: string; value: string }> = [];
  for (let i = 0; params.has(`custom_fields[${i}][name]`); i++) fields.push({ name: params.get(`custom_fields[${i}][name]`) ?? '', value: params.get(`custom_fields[${i}][value]`) ?? '' });
  return fields.length ? fields : null;
}

const stripeJson = (response: ServerResponse, status: number, body: unknown) => sendJson(response, status, body, { 'request-id': 'req_local' });
export function fakeStripeInvoicing(): FakeStripeInvoicing {
  const customers: FakeStripeInvoicing['customers'] = new Map();
  const invoices: FakeStripeInvoicing['invoices'] = new Map();
  const creditNotes: FakeStripeInvoicing['creditNotes'] = [];
  const failures: Array<{ match: RegExp; failure: Parameters<FakeStripeInvoicing['failNext']>[1] }> = [];
  const replies = new Map<string, { status: number; body: unknown }>();
  let counter = 0;
  const next = (prefix: string) => `${prefix}_${++counter}`;

  function answer(seen: Seen<URLSearchParams>): { status: number; body: unknown } {
    const { method, url, body: params } = seen;
    const path = url.pathname;
    if (method === 'GET' && path === '/v1/customers') {
      const email = params.get('email');
      return { status: 200, body: { object: 'list', data: [...customers.values()].filter((c) => c.email === email).slice(0, 1), has_more: false } };
    }
    if (method === 'POST' && path === '/v1/customers') {
      const customer = { id: next('cus'), object: 'customer', email: params.get('email') ?? '', name: params.get('name') };
      customers.set(customer.id, customer);
      return { status: 200, body: customer };
    }
    if (method === 'POST' && path === '/v1/invoices') {
      const invoice: FakeInvoice = {
        id: next('in'),
        object: 'invoice',
        customer: params.get('customer') ?? '',
        status: 'draft',
        currency: params.get('currency') ?? 'aud',
        total: 0,
        collection_method: params.get('collection_method'),
        days_until_due: params.has('days_until_due') ? Number(params.get('days_until_due')) : null,
        footer: params.get('footer'),
        description: params.get('description'),
        custom_fields: customFields(params),
        metadata: bracketed(params, 'metadata'),
        hosted_invoice_url: null,
        pending_invoice_items_behavior: params.get('pending_invoice_items_behavior'),
        lines: [],
        sent: 0,
      };
      invoices.set(invoice.id, invoice);
      return { status: 200, body: invoice };
    }
    if (method === 'POST' && path === '/v1/invoiceitems') {
      const invoice = invoices.get(params.get('invoice') ?? '');
      if (!invoice) return { status: 404, body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such invoice' } } };
      if (invoice.status !== 'draft') return { status: 400, body: { error: { type: 'invalid_request_error', message: 'Invoice is no longer a draft.' } } };
      const line = { amount: Number(params.get('amount')), description: params.get('description') ?? '' };
      invoice.lines.push(line);
      invoice.total += line.amount;
      return { status: 200, body: { id: next('ii'), object: 'invoiceitem', invoice: invoice.id, ...line } };
    }
    if (method === 'POST' && path === '/v1/credit_notes') {
      const invoice = invoices.get(params.get('invoice') ?? '');
      if (!invoice) return { status: 404, body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such invoice' } } };
      const note = {
        id: next('cn'),
        invoice: invoice.id,
        refund_amount: Number(params.get('refund_amount')),
        memo: params.get('memo'),
        metadata: bracketed(params, 'metadata'),
        idempotencyKey: seen.headers['idempotency-key'] as string | undefined,
      };
      creditNotes.push(note);
      return { status: 200, body: { object: 'credit_note', ...note, total: note.refund_amount } };
    }
    const match = path.match(/^\/v1\/invoices\/([^/]+)(?:\/([a-z_]+))?$/);
    const invoice = match?.[1] ? invoices.get(match[1]) : undefined;
    if (match && !invoice) return { status: 404, body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such invoice: '${match[1]}'` } } };
    if (invoice) {
      const action = match?.[2];
      const refuse = (message: string) => ({ status: 400, body: { error: { type: 'invalid_request_error', message } } });
      if (method === 'GET' && !action) return { status: 200, body: invoice };
      if (action === 'finalize') {
        if (invoice.status !== 'draft') return refuse('This invoice is already finalized.');
        invoice.status = 'open';
        invoice.hosted_invoice_url = `https://invoice.stripe.com/i/acct_local/${invoice.id}`;
        return { status: 200, body: invoice };
      }
      if (action === 'send') {
        if (invoice.status !== 'open') return refuse('You can only send an open invoice.');
        invoice.sent += 1;
        return { status: 200, body: invoice };
      }
      if (action === 'void') {
        if (invoice.status !== 'open' && invoice.status !== 'uncollectible') return refuse(`You cannot void an invoice with status ${invoice.status}.`);
        invoice.status = 'void';
        return { status: 200, body: invoice };
      }
      if (action === 'mark_uncollectible') {
        if (invoice.status !== 'open') return refuse(`You cannot mark an invoice with status ${invoice.status} as uncollectible.`);
        invoice.status = 'uncollectible';
        return { status: 200, body: invoice };
      }
    }
    return { status: 404, body: { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path}).` } } };
  }

  const handler: Handler<URLSearchParams> = (seen, response) => {
    const what = `${seen.method} ${seen.url.pathname}`;
    const failing = failures.findIndex((f) => f.match.test(what));
    if (failing >= 0) {
      const failure = failures.splice(failing, 1)[0]!.failure;
      if (failure === 'hang') return;
      stripeJson(response, failure.status, { error: failure.error });
      return;
    }
    const key = seen.headers['idempotency-key'] as string | undefined;
    const replay = key ? replies.get(`${what} ${key}`) : undefined;
    const reply = replay ?? answer(seen);
    // Stripe keeps the first answer as it was then, not the object as it is now.
    if (key && !replay && reply.status < 500) replies.set(`${what} ${key}`, { status: reply.status, body: JSON.parse(JSON.stringify(reply.body)) });
    stripeJson(response, reply.status, reply.body);
  };

  return { customers, invoices, creditNotes, failNext: (match, failure) => failures.push({ match, failure }), handler };
}
