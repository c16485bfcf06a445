/**
 * Every paid order has a tax invoice, through the functions on the local defaults: the confirmation email and the
 * status page name the seller (the local shop's labelled stand-in), its ABN, the date, each item with its quantity
 * and price, the GST included (one eleventh for an Australian delivery, none on an export) and the total; a
 * refund, in part or in full, adds an adjustment note with the GST in it. Before payment there is none.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readOutbox } from '../../functions/_lib/providers/local-email';
import { LOCAL_SELLER } from '../../functions/_lib/tax-invoice';
import type { TaxInvoice } from '../../src/features/tax-invoice/tax-invoice';
import { useTestShop } from '../helpers/shop';
import { internationalPrice } from '../../src/lib/international-rates';

const outbox = join(mkdtempSync(join(tmpdir(), 'outbox-')), 'outbox.jsonl');
const t = useTestShop({ env: { LOCAL_OUTBOX_FILE: outbox } });
beforeAll(async () => {
  await t.service().from('products').insert({ id: 'invoice-book', title: 'Invoice Book', price: 22, stock: 50 });
});

/** Checks out two copies to the address and pays on the TEST page; answers the order id and its status token. */
async function paidOrder(address: Record<string, unknown>, pay = true): Promise<{ orderId: string; token: string }> {
  const { body } = await t.post('create-checkout', {
    cartItems: [{ id: 'invoice-book', quantity: 2 }],
    shippingDetails: address,
    customerEmail: `invoice-${Math.random().toString(36).slice(2)}@example.com`,
  });
  const orderId = body!.orderId as string;
  if (pay) {
    const link = new URL(body!.url as string);
    const form = new URLSearchParams({ ...Object.fromEntries(link.searchParams), action: 'pay', payer: 'Ivy Payer' });
    expect((await fetch(`${t.url}/api/test-payment`, { method: 'POST', body: form, redirect: 'manual' })).status).toBe(303);
  }
  const token = (await t.service().from('orders').select('status_token').eq('id', orderId).single()).data!.status_token as string;
  return { orderId, token };
}

const AU = { fullName: 'Ivy Payer', addressLine1: '1 Church St', city: 'Parramatta', state: 'NSW', postalCode: '2150', country: 'AU', shippingMethod: { id: 'au-standard' } };
const GB = { fullName: 'Gwen Brit', addressLine1: '1 High St', city: 'London', postalCode: 'N1 1AA', country: 'GB', shippingMethod: { id: 'international-standard' } };

describe('the tax invoice', () => {
  it('an Australian order: seller, ABN, date, items with quantity and price, GST one eleventh, total — on the status page and in the confirmation', async () => {
    const { orderId, token } = await paidOrder(AU);
    const status = await t.post('order-status', { token });
    const invoice = status.body!.invoice as TaxInvoice;
    expect(invoice).toMatchObject({
      title: 'Tax invoice',
      seller: LOCAL_SELLER,
      buyer: 'Ivy Payer',
      lines: [{ title: 'Invoice Book', quantity: 2, unitPrice: 22, amount: 44 }],
      shipping: { name: 'AU Standard Courier', amount: 15 },
      total: 59,
      currency: 'AUD',
      gstApplies: true,
      gst: 5.36, // 59 / 11 = 5.3636…
      adjustments: [],
    });
    expect(Date.now() - Date.parse(invoice.date)).toBeLessThan(60_000);

    const confirmation = (await readOutbox(outbox)).find((e) => e.idempotencyKey === `order-confirmation-${orderId}`)!;
    expect(confirmation.text).toContain('TAX INVOICE');
    expect(confirmation.text).toContain(`${LOCAL_SELLER.legalName} · ABN ${LOCAL_SELLER.abn}`);
    expect(confirmation.text).toContain('Invoice Book × 2 at $22.00 each: $44.00');
    expect(confirmation.text).toContain('Total: $59.00 AUD (GST included)');
    expect(confirmation.text).toContain('GST included: $5.36');
    expect(confirmation.text).toContain(`/order-status/invoice#${token}`);
  });

  it('an export is GST-free', async () => {
    const { token } = await paidOrder(GB);
    const invoice = (await t.post('order-status', { token })).body!.invoice as TaxInvoice;
    // International Standard from the rate card (the test book has no weight: the first band).
    expect(invoice).toMatchObject({ gstApplies: false, gst: 0, total: 44 + internationalPrice('GB', 'standard', 0) });
  });

  it('an unpaid order has none', async () => {
    const { token } = await paidOrder(AU, false);
    expect((await t.post('order-status', { token })).body!.invoice).toBeNull();
  });

  it('a refund in part, then the rest, each adds an adjustment note with the GST in it', async () => {
    const { orderId, token } = await paidOrder(AU);
    const db = t.service();
    // As the publisher's Refund part and Cancel and refund leave them.
    const { error } = await db.rpc('begin_part_refund', { p_order_id: orderId, p_amount: 11, p_reason: 'Damaged cover', p_actor: 'staff@example.com' });
    expect(error).toBeNull();
    const pending = (await db.from('order_refunds').select('id').eq('order_id', orderId).single()).data!.id as string;
    expect((await db.rpc('settle_part_refund', { p_refund_id: pending, p_provider_refund_id: 're_part_1', p_failure: null })).error).toBeNull();
    let invoice = (await t.post('order-status', { token })).body!.invoice as TaxInvoice;
    expect(invoice.adjustments).toMatchObject([{ amount: 11, gst: 1, reason: 'Damaged cover', refundId: 're_part_1' }]);

    expect((await db.from('orders').update({ payment_status: 'refund_due', status: 'cancelled', refund_id: 're_rest', refunded_at: new Date().toISOString() }).eq('id', orderId)).error).toBeNull();
    invoice = (await t.post('order-status', { token })).body!.invoice as TaxInvoice;
    expect(invoice.adjustments.map((a) => [a.amount, a.gst, a.reason])).toEqual([
      [11, 1, 'Damaged cover'],
      [48, 4.36, 'Refunded in full'],
    ]);
  });
});
