/**
 * Stripe's payouts in the books: each payout Stripe paid since the connection's first day becomes a transfer from the
 * clearing account to the bank, and the fees Stripe kept out of it (the sum of its balance transactions' fees, GST
 * included) spend money from the clearing account, so the clearing account returns to zero at each payout. A payout
 * is one ledger row, claimed and settled as the other documents are: its transfer made and its fees refused, it is
 * tried again for the fees alone.
 */
import type { AccountingSession, PostedPayment } from './providers/accounting';
import { type PaymentProvider, payoutFeesCents } from './providers/payments';
import { fromCents } from '../../src/lib/money';
import { type PayoutDocument, payoutFees, payoutTransfer, type XeroSettings } from './xero-books';

/** The payouts Stripe paid since the first day, as xero_claim takes them. */
export async function paidPayouts(payments: PaymentProvider, startOn: string) {
  // The day starts in Sydney up to 11 hours before UTC midnight: a payout made in those hours is listed too.
  const since = new Date(Date.parse(`${startOn}T00:00:00Z`) - 11 * 3_600_000);
  const payouts = await payments.paidPayouts(since);
  return payouts.filter((p) => p.arrivalOn >= startOn).map((p) => ({ id: p.id, amount: fromCents(p.amountCents), arrival_on: p.arrivalOn }));
}

type PayoutResult = { key: string; status: 'posted'; xero_id: string; payment_id?: string } | { key: string; status: 'failed'; error: string; xero_id?: string };

/**
 * Posts one claimed batch of payouts: the fees are read from Stripe before anything is sent (a payout whose fees
 * cannot be read waits whole), then the transfers not yet made, then the fees of each payout whose transfer stands.
 */
export async function postPayouts(
  session: AccountingSession,
  payments: PaymentProvider,
  batch: string,
  documents: PayoutDocument[],
  settings: XeroSettings,
  afterCall: (step: string) => void,
): Promise<PayoutResult[]> {
  const fees = new Map<string, number>();
  for (const d of documents) fees.set(d.key, payoutFeesCents(await payments.payoutTransactions(d.payout.id)));
  const fresh = documents.filter((d) => !d.made);
  const transfers = new Map<string, PostedPayment>(
    fresh.length
      ? (
          await session.createTransfers(
            fresh.map((d) => payoutTransfer(d, settings)),
            `${batch}:transfers`,
          )
        ).map((t) => [t.key, t])
      : [],
  );
  if (fresh.length) afterCall('transfers');
  const standing = documents.map((d) => ({ d, transfer: d.made ? ({ key: d.key, ok: true, id: d.made.xero_id } as const) : transfers.get(d.key) }));
  const charged = standing.filter(({ d, transfer }) => transfer?.ok && (fees.get(d.key) ?? 0) > 0);
  const spends = new Map<string, PostedPayment>(
    charged.length
      ? (
          await session.createSpendMoney(
            charged.map(({ d }) => payoutFees(d, fees.get(d.key)!, settings)),
            `${batch}:fees`,
          )
        ).map((s) => [s.key, s])
      : [],
  );
  if (charged.length) afterCall('fees');
  return standing.map(({ d, transfer }): PayoutResult => {
    if (!transfer?.ok) return { key: d.key, status: 'failed', error: `Its transfer to the bank was refused: ${transfer?.error ?? 'Xero gave no answer for it.'}` };
    if ((fees.get(d.key) ?? 0) <= 0) return { key: d.key, status: 'posted', xero_id: transfer.id };
    const spend = spends.get(d.key);
    // The transfer stands in Xero; its fees are what failed, so only they are tried again.
    if (!spend?.ok) return { key: d.key, status: 'failed', xero_id: transfer.id, error: `Transferred, but Stripe's fees were refused: ${spend?.error ?? 'no answer'}` };
    return { key: d.key, status: 'posted', xero_id: transfer.id, payment_id: spend.id };
  });
}
