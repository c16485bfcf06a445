/**
 * One run of the sync to Xero: for each kind of document in turn (sales, school invoices, their payments and voids,
 * then refunds, then Stripe's payouts), claim a batch in the ledger, post it under the batch's idempotency keys, settle what Xero said.
 * A document Xero refuses is kept failed with its words and tried again next run; a lost answer, a busy Xero or a
 * run that dies leaves the batch claimed, and the next run posts the same batch under the same keys, so Xero
 * answers what it already made and nothing is posted twice. A run stops before Xero's 60 calls a minute.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { z } from 'zod';
import type { ServerEnv } from '../../src/config/env';
import { countOf } from '../../src/lib/format';
import { SYNC_LEASE_MINUTES } from '../../src/features/accounting/rules';
import type { AccountingProvider, AccountingSession, Posted, PostedPayment } from './providers/accounting';
import { ProviderError } from './providers/errors';
import type { PaymentProvider } from './providers/payments';
import { XeroRateLimited } from './providers/xero';
import { openConnection } from './xero-connection';
import { creditNoteDocument, invoiceDocument, invoicePayment, type LedgerDocument, ledgerDocumentSchema, payoutDocumentSchema, refundPayment, type XeroSettings, xeroSettings } from './xero-books';
import { paidPayouts, postPayouts } from './xero-payouts';

/** Fifty documents a call, as Xero advises for batches; a run makes at most 55 calls, inside the 60 a minute. */
export const BATCH_SIZE = 50;
export const CALLS_PER_RUN = 55;
const KINDS = ['sale', 'school', 'school_paid', 'school_void', 'credit'] as const;
type Kind = (typeof KINDS)[number] | 'payout';

/** One document's outcome for xero_settle. A failed one may carry what Xero made of it, so a retry only pays it. */
type Made = { xero_id: string; xero_number?: string | null; total?: number; gst?: number };
type Result = ({ key: string; status: 'posted'; payment_id?: string } & Made) | ({ key: string; status: 'failed' | 'retry'; error: string } & Partial<Made>);

export interface SyncOutcome {
  status: 'done' | 'not-connected' | 'needs-renewal' | 'stopped' | 'running';
  posted: number;
  failed: number;
  calls: number;
  message: string;
}

export interface SyncOptions {
  trigger: 'schedule' | 'staff';
  settings?: XeroSettings;
  batchSize?: number;
  callsPerRun?: number;
  /** Where Stripe's payouts and their fees are read; without it no payout is posted. */
  payments?: PaymentProvider;
  /** Tests: runs after each call to Xero, so a test can end the run there as a killed process would. */
  afterCall?: (kind: Kind, step: string) => void;
}

const claimAnswer = z.object({ batch: z.string().nullable(), documents: z.array(ledgerDocumentSchema).nullable() });
const payoutClaimAnswer = z.object({ batch: z.string().nullable(), documents: z.array(payoutDocumentSchema).nullable() });

async function claim(db: SupabaseClient, kind: Exclude<Kind, 'payout'>, limit: number, triedBefore: string) {
  const { data, error } = await db.rpc('xero_claim', { p_kind: kind, p_limit: limit, p_tried_before: triedBefore });
  if (error) throw new Error(`The documents to post could not be claimed: ${error.message}`);
  const parsed = claimAnswer.parse(data);
  return { batch: parsed.batch, documents: parsed.documents ?? [] };
}

/** The payouts not yet in the ledger join it as they are claimed. */
async function claimPayouts(db: SupabaseClient, payouts: Awaited<ReturnType<typeof paidPayouts>>, limit: number, triedBefore: string) {
  const { data, error } = await db.rpc('xero_claim', { p_kind: 'payout', p_limit: limit, p_payouts: payouts, p_tried_before: triedBefore });
  if (error) throw new Error(`The payouts to post could not be claimed: ${error.message}`);
  const parsed = payoutClaimAnswer.parse(data);
  return { batch: parsed.batch, documents: parsed.documents ?? [] };
}

async function settle(db: SupabaseClient, batch: string, results: Result[]) {
  const { error } = await db.rpc('xero_settle', { p_batch: batch, p_results: results });
  if (error) throw new Error(`What Xero answered could not be recorded: ${error.message}`);
}

const byKey = <T extends { key: string }>(items: T[]) => new Map(items.map((i) => [i.key, i]));

/** Posts one claimed batch and answers each document's result. Throws only what ends the run (a ProviderError for the whole call). */
async function postBatch(
  session: AccountingSession,
  kind: Exclude<Kind, 'payout'>,
  batch: string,
  documents: LedgerDocument[],
  settings: XeroSettings,
  afterCall: (step: string) => void,
): Promise<Result[]> {
  const failed = (p: { key: string; error: string }): Result => ({ key: p.key, status: 'failed', error: p.error });
  const paid = async (posted: Posted[], toPayment: (d: LedgerDocument, id: string) => Parameters<AccountingSession['createPayments']>[0][number], step: string): Promise<Result[]> => {
    const docs = byKey(documents);
    const ok = posted.filter((p): p is Extract<Posted, { ok: true }> => p.ok);
    const payments: PostedPayment[] = ok.length
      ? await session.createPayments(
          ok.map((p) => toPayment(docs.get(p.key)!, p.id)),
          `${batch}:${step}`,
        )
      : [];
    afterCall(step);
    const paymentOf = byKey(payments);
    return posted.map((p): Result => {
      if (!p.ok) return failed(p);
      const payment = paymentOf.get(p.key);
      // The document stands in Xero; its payment is what failed, so the whole is tried again (under the same keys).
      if (!payment?.ok) {
        return {
          key: p.key,
          status: 'failed',
          xero_id: p.id,
          xero_number: p.number,
          total: p.total,
          gst: p.totalTax,
          error: `Posted as ${p.number ?? p.id}, but its payment was refused: ${payment?.error ?? 'no answer'}`,
        };
      }
      return { key: p.key, status: 'posted', xero_id: p.id, xero_number: p.number, payment_id: payment.id, total: p.total, gst: p.totalTax };
    });
  };

  /** Makes what an earlier try did not; what it made (its payment refused) is answered as it stands. */
  const made = async (create: (docs: LedgerDocument[]) => Promise<Posted[]>, step: string): Promise<Posted[]> => {
    const fresh = documents.filter((d) => !d.made);
    const answers = byKey(fresh.length ? await create(fresh) : []);
    if (fresh.length) afterCall(step);
    return documents.map((d): Posted => (d.made ? { key: d.key, ok: true, id: d.made.xero_id, number: d.made.xero_number, total: d.made.total ?? 0, totalTax: d.made.gst ?? 0 } : answers.get(d.key)!));
  };

  if (kind === 'sale') {
    const posted = await made(
      (docs) =>
        session.createInvoices(
          docs.map((d) => invoiceDocument(d, settings)),
          `${batch}:invoices`,
        ),
      'invoices',
    );
    return paid(posted, (d, id) => invoicePayment(d, id, settings), 'payments');
  }
  if (kind === 'school') {
    const posted = await session.createInvoices(
      documents.map((d) => invoiceDocument(d, settings)),
      `${batch}:invoices`,
    );
    afterCall('invoices');
    return posted.map((p): Result => (p.ok ? { key: p.key, status: 'posted', xero_id: p.id, xero_number: p.number, total: p.total, gst: p.totalTax } : failed(p)));
  }
  if (kind === 'school_paid') {
    const payments = await session.createPayments(
      documents.map((d) => invoicePayment(d, d.xero_invoice_id ?? '', settings)),
      `${batch}:payments`,
    );
    afterCall('payments');
    return payments.map((p): Result => (p.ok ? { key: p.key, status: 'posted', xero_id: p.id, payment_id: p.id } : failed(p)));
  }
  if (kind === 'school_void') {
    const results: Result[] = [];
    for (const d of documents) {
      const refused = await session.voidInvoice(d.xero_invoice_id ?? '', `${batch}:void:${d.key}`);
      afterCall('void');
      results.push(refused ? failed({ key: d.key, error: refused }) : { key: d.key, status: 'posted', xero_id: d.xero_invoice_id ?? d.key });
    }
    return results;
  }
  const posted = await made(
    (docs) =>
      session.createCreditNotes(
        docs.map((d) => creditNoteDocument(d, settings)),
        `${batch}:credit-notes`,
      ),
    'credit-notes',
  );
  return paid(posted, (d, id) => refundPayment(d, id, settings), 'refunds');
}

export const DIED = 'This sync did not finish (its process ended): the next sync posts what it had claimed.';

/**
 * The run's id, and when it started by the database's clock (what fails from then on waits for the next run); null
 * while another run is under way, as the database allows one unfinished run. A run that died is closed first.
 */
async function startRun(db: SupabaseClient, trigger: 'schedule' | 'staff'): Promise<{ id: number; startedAt: string } | null> {
  await db
    .from('xero_syncs')
    .update({ finished_at: new Date().toISOString(), stopped: DIED })
    .is('finished_at', null)
    .lt('started_at', new Date(Date.now() - SYNC_LEASE_MINUTES * 60_000).toISOString());
  const { data, error } = await db.from('xero_syncs').insert({ trigger }).select('id, started_at').single();
  if (error?.code === '23505') return null;
  if (error) throw new Error(`The sync could not be started: ${error.message}`);
  const row = data as { id: number; started_at: string };
  return { id: row.id, startedAt: row.started_at };
}

/** `stopped` is why the run ended early, alone: the back office shows it after the run's own counts. */
async function finishRun(db: SupabaseClient, id: number, outcome: SyncOutcome, stopped: string | null) {
  await db
    .from('xero_syncs')
    .update({ finished_at: new Date().toISOString(), posted: outcome.posted, failed: outcome.failed, calls: outcome.calls, stopped: stopped?.slice(0, 1000) ?? null })
    .eq('id', id);
}

/** One run of the sync; answers what it did in a sentence for the publisher. */
export async function syncToXero(db: SupabaseClient, env: ServerEnv, accounting: AccountingProvider, options: SyncOptions): Promise<SyncOutcome> {
  const settings = options.settings ?? xeroSettings(env);
  const batchSize = options.batchSize ?? BATCH_SIZE;
  const callsPerRun = options.callsPerRun ?? CALLS_PER_RUN;
  const connection = await openConnection(db, env, accounting);
  if (!connection) return { status: 'not-connected', posted: 0, failed: 0, calls: 0, message: 'The shop is not connected to Xero: press Connect to Xero first.' };
  const started = await startRun(db, options.trigger);
  if (!started) return { status: 'running', posted: 0, failed: 0, calls: 1, message: 'A sync is already running: what it posts shows here when it ends.' };
  const { id: run, startedAt } = started;
  if ('lapsed' in connection) {
    const outcome: SyncOutcome = { status: 'needs-renewal', posted: 0, failed: 0, calls: 1, message: `${connection.lapsed}` };
    await finishRun(db, run, outcome, outcome.message);
    return outcome;
  }
  const session = accounting.session(connection.accessToken, connection.tenantId);
  let posted = 0;
  let failed = 0;
  let stopped = null as string | null;
  // The token refresh is one call too.
  const calls = () => session.calls + 1;
  /** Claims and posts batches of one kind until none waits; false when the run must stop here. */
  async function batches<D extends { key: string }>(
    kind: Kind,
    claimBatch: (limit: number) => Promise<{ batch: string | null; documents: D[] }>,
    post: (batch: string, documents: D[]) => Promise<Result[]>,
  ): Promise<boolean> {
    for (;;) {
      // A batch takes two calls (a void one a document, payouts one a transfer and one for all their fees): none is
      // started that the minute's budget cannot finish.
      const room = callsPerRun - calls();
      if (room < 2) {
        stopped = `This sync made ${calls()} calls, near Xero's limit of 60 a minute: the rest is posted by the next sync.`;
        return false;
      }
      const { batch, documents } = await claimBatch(kind === 'school_void' ? Math.min(batchSize, room) : kind === 'payout' ? Math.min(batchSize, room - 1) : batchSize);
      if (!batch || documents.length === 0) return true;
      let results: Result[];
      try {
        results = await post(batch, documents);
      } catch (error) {
        if (!(error instanceof ProviderError)) throw error;
        // Xero (or Stripe, for a payout's fees) did not answer for the whole batch: posted again, under the same keys, by the next run.
        await settle(
          db,
          batch,
          documents.map((d) => ({ key: d.key, status: 'retry', error: error.message })),
        );
        stopped =
          error instanceof XeroRateLimited
            ? `${error.message} The rest waits for the next sync.`
            : error.provider === 'stripe'
              ? `Stripe did not give the fees of a payout: ${error.message} It is tried again at the next sync.`
              : `Xero did not take the last batch: ${error.message} It is tried again at the next sync.`;
        return false;
      }
      await settle(db, batch, results);
      posted += results.filter((r) => r.status === 'posted').length;
      failed += results.filter((r) => r.status === 'failed').length;
    }
  }

  let going = true;
  try {
    for (const kind of KINDS) {
      going = await batches(
        kind,
        (limit) => claim(db, kind, limit, startedAt),
        (batch, documents) => postBatch(session, kind, batch, documents, settings, (step) => options.afterCall?.(kind, step)),
      );
      if (!going) break;
    }
    const payments = options.payments;
    if (going && payments) {
      let payouts: Awaited<ReturnType<typeof paidPayouts>> | null = null;
      try {
        payouts = await paidPayouts(payments, connection.startOn);
      } catch (error) {
        if (!(error instanceof ProviderError)) throw error;
        stopped = `Stripe did not list its payouts: ${error.message} They are posted at the next sync.`;
      }
      if (payouts?.length) {
        const list = payouts;
        await batches(
          'payout',
          (limit) => claimPayouts(db, list, limit, startedAt),
          (batch, documents) => postPayouts(session, payments, batch, documents, settings, (step) => options.afterCall?.('payout', step)),
        );
      }
    }
  } catch (error) {
    // Not an answer of Xero's (the database, say): the run is closed with it, so the next need not wait out its lease.
    await finishRun(db, run, { status: 'stopped', posted, failed, calls: calls(), message: '' }, `This sync stopped: ${error instanceof Error ? error.message : String(error)}`);
    throw error;
  }
  // "Nothing new" only when nothing was refused or left waiting; never "Posted 0 documents".
  const message = [
    posted > 0 ? `Posted ${countOf(posted, 'document')} to ${connection.tenantName}.` : failed === 0 && !stopped ? 'Nothing new to post to Xero.' : null,
    failed > 0 ? `Xero refused ${countOf(failed, 'document')}: see below.` : null,
    stopped,
  ]
    .filter(Boolean)
    .join(' ');
  const outcome: SyncOutcome = { status: stopped ? 'stopped' : 'done', posted, failed, calls: calls(), message };
  await finishRun(db, run, outcome, stopped);
  return outcome;
}
