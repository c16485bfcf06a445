/**
 * LOCAL STAND-IN for Stripe's payouts, so the books in Xero can be seen whole on the local server: a payout for each
 * Sydney day that has ended, of the TEST payments taken that day less the stand-in's fees and the day's refunds
 * (skipped when nothing is left), arriving the next day. A day's takings are its paid card orders and school invoices. The fee is a stand-in figure on Stripe's rule for domestic
 * cards in Australia, 1.7% + 30c a charge, GST included; a real payout's fees are what Stripe's balance
 * transactions say.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { shopDay } from '../../../src/lib/format';
import { toCents } from '../../../src/lib/money';
import type { Payout, PayoutTransaction } from './payments';

export const localFeeCents = (chargeCents: number) => Math.round(chargeCents * 0.017) + 30;

const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
const payoutId = (day: string) => `po_local_${day.replaceAll('-', '')}`;

/** Every ended day's transactions since `since`, by Sydney day. */
async function transactionsByDay(db: SupabaseClient, since: Date): Promise<Map<string, PayoutTransaction[]>> {
  const from = since.toISOString();
  const [paid, invoices, parts, whole] = await Promise.all([
    db.from('orders').select('id, total_amount, paid_at').eq('kind', 'checkout').gte('paid_at', from),
    // A school's invoice paid through Stripe's hosted page is in the balance too.
    db.from('invoices').select('id, total, paid_at').eq('status', 'paid').gte('paid_at', from),
    db.from('order_refunds').select('id, order_id, amount, settled_at').eq('status', 'succeeded').gte('settled_at', from),
    db.from('orders').select('id, total_amount, refunded_at').gte('refunded_at', from),
  ]);
  const failed = paid.error ?? invoices.error ?? parts.error ?? whole.error;
  if (failed) throw new Error(`The TEST payouts could not be read: ${failed.message}`);
  const days = new Map<string, PayoutTransaction[]>();
  const add = (at: string, t: PayoutTransaction) => days.set(shopDay(new Date(at)), [...(days.get(shopDay(new Date(at))) ?? []), t]);
  for (const o of paid.data ?? []) {
    const cents = toCents(Number(o.total_amount));
    add(o.paid_at as string, { id: `txn_local_ch_${o.id}`, type: 'charge', amountCents: cents, feeCents: localFeeCents(cents) });
  }
  for (const v of invoices.data ?? []) {
    const cents = toCents(Number(v.total));
    add(v.paid_at as string, { id: `txn_local_in_${v.id}`, type: 'charge', amountCents: cents, feeCents: localFeeCents(cents) });
  }
  const partsOf = new Map<string, number>();
  for (const r of parts.data ?? []) {
    const cents = toCents(Number(r.amount));
    partsOf.set(r.order_id as string, (partsOf.get(r.order_id as string) ?? 0) + cents);
    add(r.settled_at as string, { id: `txn_local_re_${r.id}`, type: 'refund', amountCents: -cents, feeCents: 0 });
  }
  // A refund of the whole order gives back what its parts had not.
  for (const o of whole.data ?? []) {
    const cents = toCents(Number(o.total_amount)) - (partsOf.get(o.id as string) ?? 0);
    if (cents > 0) add(o.refunded_at as string, { id: `txn_local_re_${o.id}_full`, type: 'refund', amountCents: -cents, feeCents: 0 });
  }
  const today = shopDay();
  for (const day of days.keys()) if (day >= today) days.delete(day);
  return days;
}

const net = (transactions: PayoutTransaction[]) => transactions.reduce((sum, t) => sum + t.amountCents - t.feeCents, 0);

export async function localPaidPayouts(db: SupabaseClient, since: Date): Promise<Payout[]> {
  const days = await transactionsByDay(db, since);
  return [...days.entries()]
    .filter(([, transactions]) => net(transactions) > 0)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([day, transactions]) => ({ id: payoutId(day), amountCents: net(transactions), arrivalOn: nextDay(day) }));
}

export async function localPayoutTransactions(db: SupabaseClient, id: string): Promise<PayoutTransaction[]> {
  const match = /^po_local_(\d{4})(\d{2})(\d{2})$/.exec(id);
  if (!match) throw new Error(`No TEST payout ${id}`);
  const day = `${match[1]}-${match[2]}-${match[3]}`;
  // The day starts at most 11 hours before its UTC midnight (AEDT): a day earlier covers it.
  const transactions = (await transactionsByDay(db, new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000))).get(day) ?? [];
  return [...transactions, { id: `txn_local_${id}`, type: 'payout', amountCents: -net(transactions), feeCents: 0 }];
}
