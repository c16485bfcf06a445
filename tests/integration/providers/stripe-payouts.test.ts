/**
 * Stripe's payouts through the real `stripe` package, against a local server answering GET /v1/payouts and
 * GET /v1/balance_transactions like Stripe: lists of up to 100 with has_more, followed by starting_after, and
 * { error: { type, message, code } } on failure. What the books in Xero need: the paid payouts since a day, oldest
 * first, and the fees Stripe kept out of each.
 */
import type { ServerResponse } from 'node:http';
import type Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { payoutFeesCents } from '../../../functions/_lib/providers/payments';
import { createStripePayments } from '../../../functions/_lib/providers/stripe';
import { sendJson, useFakeProvider, type Handler } from '../../helpers/fake-provider';

const SECRET_KEY = 'sk_test_51LocalFakeKey';
const fake = useFakeProvider({ parseBody: (_raw, { url }) => new URLSearchParams(url.search) });
const stripeJson = (response: ServerResponse, status: number, body: unknown) => sendJson(response, status, body, { 'request-id': 'req_local' });

async function fakeStripe(handler: Handler<URLSearchParams>): Promise<Stripe.StripeConfig> {
  const { port } = await fake.start((seen, response) => {
    if (seen.headers.authorization !== `Bearer ${SECRET_KEY}`) return stripeJson(response, 401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
    handler(seen, response);
  });
  return { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0, telemetry: false };
}

const payout = (id: string, amount: number, arrival: string) => ({
  id,
  object: 'payout',
  amount,
  arrival_date: Date.parse(`${arrival}T00:00:00Z`) / 1000,
  created: Date.parse(`${arrival}T00:00:00Z`) / 1000 - 86_400,
  currency: 'aud',
  status: 'paid',
  type: 'bank_account',
});
const txn = (id: string, type: string, amount: number, fee: number) => ({ id, object: 'balance_transaction', type, amount, fee, net: amount - fee, currency: 'aud', status: 'available' });

describe('Stripe payouts and their fees', () => {
  it('lists the paid payouts since a day, every page, oldest first, with the day each arrives in Sydney', async () => {
    const stripeOptions = await fakeStripe((seen, res) => {
      const after = seen.body.get('starting_after');
      if (!after) return stripeJson(res, 200, { object: 'list', url: '/v1/payouts', has_more: true, data: [payout('po_3', 9800, '2026-11-30'), payout('po_2', 5000, '2026-11-29')] });
      stripeJson(res, 200, { object: 'list', url: '/v1/payouts', has_more: false, data: [payout('po_1', 4321, '2026-11-28')] });
    });
    const since = new Date('2026-11-27T13:00:00Z');
    expect(await createStripePayments({ secretKey: SECRET_KEY, stripeOptions }).paidPayouts(since)).toEqual([
      { id: 'po_1', amountCents: 4321, arrivalOn: '2026-11-28' },
      { id: 'po_2', amountCents: 5000, arrivalOn: '2026-11-29' },
      { id: 'po_3', amountCents: 9800, arrivalOn: '2026-11-30' },
    ]);
    expect(fake.seen[0]).toMatchObject({ method: 'GET', path: expect.stringMatching(/^\/v1\/payouts\?/) });
    expect(Object.fromEntries(fake.seen[0]!.body)).toEqual({ status: 'paid', 'created[gte]': String(since.getTime() / 1000), limit: '100' });
    expect(fake.seen[1]!.body.get('starting_after')).toBe('po_2');
  });

  it('reads a payout’s balance transactions, each with Stripe’s fee; the fees are their sum', async () => {
    const stripeOptions = await fakeStripe((_seen, res) =>
      stripeJson(res, 200, {
        object: 'list',
        has_more: false,
        data: [txn('txn_1', 'charge', 5900, 130), txn('txn_2', 'charge', 4700, 110), txn('txn_3', 'refund', -1100, 0), txn('txn_4', 'payout', -9260, 0)],
      }),
    );
    const transactions = await createStripePayments({ secretKey: SECRET_KEY, stripeOptions }).payoutTransactions('po_1');
    expect(fake.seen[0]!.body.get('payout')).toBe('po_1');
    expect(transactions[0]).toEqual({ id: 'txn_1', type: 'charge', amountCents: 5900, feeCents: 130 });
    expect(payoutFeesCents(transactions)).toBe(240);
  });

  it('Stripe refusing (a wrong key, a payout it does not know) or answering garbage is a ProviderError, never an empty list', async () => {
    const stripeOptions = await fakeStripe((seen, res) =>
      seen.path.startsWith('/v1/balance_transactions')
        ? stripeJson(res, 404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: "No such payout: 'po_missing'" } })
        : stripeJson(res, 200, { object: 'list', data: 'nothing' }),
    );
    const stripe = createStripePayments({ secretKey: SECRET_KEY, stripeOptions });
    await expect(stripe.payoutTransactions('po_missing')).rejects.toMatchObject({ name: 'ProviderError', status: 404, message: expect.stringContaining('resource_missing') });
    await expect(stripe.paidPayouts(new Date())).rejects.toMatchObject({ name: 'ProviderError', code: 'invalid-response' });
    await expect(createStripePayments({ secretKey: 'sk_test_wrong', stripeOptions }).paidPayouts(new Date())).rejects.toMatchObject({ status: 401 });
  });
});
