/**
 * Stripe's payouts in the books, on the local server with the TEST organisation and the stand-in's payouts: a day of
 * card orders (one to the US) and a part refund, then the next day’s sync posts the day’s
 * invoices, credit note and payout; the payout's transfer and Stripe's fees leave the clearing account at zero, and
 * a second sync posts nothing more.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalTestPayments } from '../../functions/_lib/providers/local-payments';
import { localFeeCents } from '../../functions/_lib/providers/local-payouts';
import { createLocalXero, LOCAL_TENANT, localXeroBooks } from '../../functions/_lib/providers/local-xero';
import { XERO_DEFAULTS } from '../../functions/_lib/xero-books';
import { sealToken, tokenKey } from '../../functions/_lib/xero-connection';
import { syncToXero } from '../../functions/_lib/xero-sync';
import { readServerEnv } from '../../src/config/env';
import { fromCents, toCents } from '../../src/lib/money';
import { startTestShop, type TestShop } from '../helpers/shop';
import { useXeroTestFile } from '../helpers/xero-test-env';

let t: TestShop;
let file: string;
let restoreEnv: () => void;

beforeAll(async () => {
  ({ file, restore: restoreEnv } = useXeroTestFile('xero-payouts'));
  t = await startTestShop();
}, 180_000);
afterAll(async () => {
  await t?.close();
  restoreEnv?.();
});

const sql = (text: string) => t.shop.backend!.db.exec(text);
/** Noon yesterday in Sydney: a day that has ended, so the stand-in has paid it out. */
const YESTERDAY_NOON = `((((now() at time zone 'Australia/Sydney')::date - 1) + time '12:00') at time zone 'Australia/Sydney')`;

describe('Stripe payouts in the books in Xero', () => {
  it('a day of orders and a refund: its payout moves the clearing account to the bank and spends the fees, leaving it at zero; a second sync posts nothing more', async () => {
    const env = readServerEnv();
    // Connected from yesterday, as the consent page would have done.
    await sql(`update public.xero_connection set tenant_id = '${LOCAL_TENANT.tenantId}', tenant_name = '${LOCAL_TENANT.tenantName}',
      refresh_token_sealed = '${sealToken('local-refresh-payouts', tokenKey(env))}', refresh_expires_at = now() + interval '60 days',
      start_on = (now() at time zone 'Australia/Sydney')::date - 1, connected_at = now()`);
    const [au, us] = [crypto.randomUUID(), crypto.randomUUID()];
    await sql(`insert into public.orders (id, customer_email, customer_name, status, payment_status, subtotal_amount, shipping_amount, total_amount, shipping_address, shipping_method, paid_at) values
        ('${au}', 'ann@example.com', 'Ann Lee', 'processing', 'paid', 44, 15, 59, '{"country": "AU"}', '{"name": "Courier"}', ${YESTERDAY_NOON}),
        ('${us}', 'bo@example.com', 'Bo Ng', 'processing', 'paid', 22, 25, 47, '{"country": "US"}', '{"name": "International"}', ${YESTERDAY_NOON} + interval '1 hour');
      insert into public.order_items (order_id, product_id, title, quantity, price_at_time) values ('${au}', 'book-10-reasons', 'Ten Reasons', 2, 22), ('${us}', 'book-10-reasons', 'Ten Reasons', 1, 22);
      insert into public.order_refunds (order_id, amount, reason, status, provider_refund_id, actor, settled_at) values
        ('${au}', 11, 'One copy arrived damaged', 'succeeded', 're_1', 'books@example.com', ${YESTERDAY_NOON} + interval '2 hours');`);

    const xero = createLocalXero({ file });
    const payments = createLocalTestPayments(() => t.service());
    const first = await syncToXero(t.service(), env, xero, { trigger: 'schedule', payments });
    // Two invoices, one credit note, one payout.
    expect(first).toMatchObject({ status: 'done', posted: 4, failed: 0 });

    const books = await localXeroBooks(file);
    const fees = fromCents(localFeeCents(5900) + localFeeCents(4700));
    expect(books.transfers).toEqual([expect.objectContaining({ From: 'STRIPE', To: '090', Amount: fromCents(5900 + 4700 - 1100 - toCents(fees)) })]);
    expect(books.spends).toEqual([expect.objectContaining({ Account: 'STRIPE', Contact: 'Stripe', Total: fees, LineItems: [expect.objectContaining({ AccountCode: '404', TaxType: 'INPUT' })] })]);
    expect(books.balances.STRIPE).toBe(0);
    expect(books.balances['090']).toBe(books.transfers[0]!.Amount);

    const again = await syncToXero(t.service(), env, xero, { trigger: 'schedule', payments });
    expect(again).toMatchObject({ status: 'done', posted: 0, failed: 0 });
    const after = await localXeroBooks(file);
    expect(after.calls).toBe(books.calls);
    expect(after.balances.STRIPE).toBe(0);

    // The TEST page shows the payout and the empty clearing account.
    const page = await (await fetch(`${t.url}/api/test-xero`)).text();
    expect(page).toMatch(/data-testid="xero-payouts">1</);
    expect(page).toMatch(/data-testid="xero-clearing">\$0\.00</);
    expect(page).toContain('po_local_');
  });

  it('fees Xero refuses are kept failed with its words, the transfer standing; the next sync posts the fees alone', async () => {
    const env = readServerEnv();
    const twoDaysAgo = YESTERDAY_NOON.replace('::date - 1)', '::date - 2)');
    const order = crypto.randomUUID();
    await sql(`update public.xero_connection set start_on = (now() at time zone 'Australia/Sydney')::date - 2;
      insert into public.orders (id, customer_email, customer_name, status, payment_status, subtotal_amount, shipping_amount, total_amount, shipping_address, shipping_method, paid_at) values
        ('${order}', 'cy@example.com', 'Cy Lee', 'processing', 'paid', 22, 15, 37, '{"country": "AU"}', '{"name": "Courier"}', ${twoDaysAgo});
      insert into public.order_items (order_id, product_id, title, quantity, price_at_time) values ('${order}', 'book-10-reasons', 'Ten Reasons', 1, 22);`);
    const xero = createLocalXero({ file });
    const payments = createLocalTestPayments(() => t.service());
    const refused = await syncToXero(t.service(), env, xero, { trigger: 'staff', payments, settings: { ...XERO_DEFAULTS, feesAccount: '999' } });
    expect(refused).toMatchObject({ posted: 1, failed: 1 });
    const { data: failures } = await t.service().from('xero_postings').select('key, error, xero_id').eq('status', 'failed');
    expect(failures).toEqual([{ key: expect.stringMatching(/^payout:po_local_/), xero_id: expect.any(String), error: expect.stringContaining("Account code '999'") }]);

    const fixed = await syncToXero(t.service(), env, xero, { trigger: 'staff', payments });
    expect(fixed).toMatchObject({ posted: 1, failed: 0 });
    const books = await localXeroBooks(file);
    expect(books.transfers).toHaveLength(2);
    expect(books.spends).toHaveLength(2);
    expect(books.balances.STRIPE).toBe(0);

    // Today's takings wait in the Stripe account for tomorrow's payout; at each payout it was back at zero.
    const today = crypto.randomUUID();
    await sql(`insert into public.orders (id, customer_email, customer_name, status, payment_status, subtotal_amount, shipping_amount, total_amount, shipping_address, shipping_method, paid_at) values
        ('${today}', 'di@example.com', 'Di Lee', 'processing', 'paid', 22, 15, 37, '{"country": "AU"}', '{"name": "Courier"}', now());
      insert into public.order_items (order_id, product_id, title, quantity, price_at_time) values ('${today}', 'book-10-reasons', 'Ten Reasons', 1, 22);`);
    expect(await syncToXero(t.service(), env, xero, { trigger: 'staff', payments })).toMatchObject({ posted: 1, failed: 0 });
    const now = await localXeroBooks(file);
    expect(now.balances.STRIPE).toBe(37);
    expect(now.transfers.map((t) => t.left)).toEqual([0, 0]);
    const page = await (await fetch(`${t.url}/api/test-xero`)).text();
    expect(page.match(/data-testid="xero-left-after-payout">\$0\.00</g)).toHaveLength(2);
    expect(page).toMatch(/data-testid="xero-clearing">\$37\.00</);
  });
});
