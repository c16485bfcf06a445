/**
 * LOCAL STAND-IN for Xero, used only on the local server when no Xero app is set (XERO_CLIENT_ID). It answers in the
 * shapes of Xero's accounting API: its consent screen is the TEST page (/api/test-xero), which offers one TEST
 * organisation; invoices, credit notes, payments, voids, bank transfers and spend money are kept as one JSON line per call in LOCAL_XERO_FILE
 * (default local/.data/xero.jsonl), each with its Idempotency-Key, and a key seen before answers what it made the
 * first time, as Xero does. It refuses what Xero refuses, in Xero's words where its documentation gives them: an
 * account code or tax type the organisation does not have, an invoice number already used, a payment to a voided
 * document, a payment or a credit note's refund past what is left on it, the voiding of an invoice with a payment.
 */
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { fromCents, toCents } from '../../../src/lib/money';
import type { AccountingDocument, AccountingPayment, AccountingProvider, AccountingSession, Posted, PostedPayment } from './accounting';
import { appendJsonLines, readJsonLines } from './json-lines';

const DEFAULT_XERO_FILE = 'local/.data/xero.jsonl';
export const LOCAL_TENANT = { tenantId: '00000000-0000-4000-8000-00000000e401', tenantName: 'TEST Organisation (Xero stand-in)' };
/** The TEST organisation's chart: Xero's Australian defaults, and a bank account for the Stripe balance. */
export const LOCAL_ACCOUNTS = [
  { code: '090', name: 'Business Bank Account', type: 'BANK', status: 'ACTIVE' },
  { code: 'STRIPE', name: 'Stripe', type: 'BANK', status: 'ACTIVE' },
  { code: '200', name: 'Sales', type: 'REVENUE', status: 'ACTIVE' },
  { code: '260', name: 'Other Revenue', type: 'REVENUE', status: 'ACTIVE' },
  { code: '404', name: 'Bank Fees', type: 'EXPENSE', status: 'ACTIVE' },
];
const LOCAL_TAX_TYPES = ['OUTPUT', 'INPUT', 'EXEMPTEXPORT', 'EXEMPTOUTPUT', 'EXEMPTEXPENSES', 'BASEXCLUDED', 'GSTONIMPORTS'];

/** One document as the stand-in keeps it (Xero's own field names). */
export interface LocalXeroDocument {
  Type: 'ACCREC' | 'ACCRECCREDIT';
  ID: string;
  Number: string;
  Reference: string;
  Contact: string;
  Date: string;
  Total: number;
  TotalTax: number;
  LineItems: Array<{ Description: string; Quantity: number; UnitAmount: number; AccountCode: string; TaxType: string; TaxAmount: number }>;
}

type LocalXeroLine =
  | { type: 'documents'; at: string; idempotencyKey: string; answers: Posted[]; made: LocalXeroDocument[] }
  | {
      type: 'payments';
      at: string;
      idempotencyKey: string;
      answers: PostedPayment[];
      made: Array<{ PaymentID: string; target: string; Account: string; Date: string; Amount: number; Reference: string }>;
    }
  | { type: 'void'; at: string; idempotencyKey: string; invoiceId: string }
  | {
      type: 'transfers';
      at: string;
      idempotencyKey: string;
      answers: PostedPayment[];
      made: Array<{ BankTransferID: string; From: string; To: string; Date: string; Amount: number; Reference: string }>;
    }
  | {
      type: 'spend';
      at: string;
      idempotencyKey: string;
      answers: PostedPayment[];
      made: Array<{
        BankTransactionID: string;
        Account: string;
        Contact: string;
        Date: string;
        Reference: string;
        Total: number;
        LineItems: Array<{ Description: string; UnitAmount: number; AccountCode: string; TaxType: string }>;
      }>;
    };

export const localXeroFile = (env: Record<string, string | undefined> = process.env) => resolve(env.LOCAL_XERO_FILE?.trim() || DEFAULT_XERO_FILE);

/**
 * What the TEST organisation holds: each document with what was paid or refunded against it, and whether it was
 * voided; each bank account's balance (payments in, refunds, transfers and spend money out); the payouts' transfers
 * and the fees' spend money.
 */
export interface LocalXeroBooks {
  documents: Array<LocalXeroDocument & { at: string; paid: number; voided: boolean }>;
  balances: Record<string, number>;
  /** Each payout's transfer, with what it left in the account it came from: all dated before its day, less it and the fees. */
  transfers: Array<Extract<LocalXeroLine, { type: 'transfers' }>['made'][number] & { left: number }>;
  spends: Extract<LocalXeroLine, { type: 'spend' }>['made'];
  calls: number;
}

export async function localXeroBooks(file = localXeroFile()): Promise<LocalXeroBooks> {
  const lines = await readJsonLines<LocalXeroLine>(file);
  const byId = new Map<string, LocalXeroBooks['documents'][number]>();
  // Each bank account's movements, dated; a payout's (its transfer and fees) marked as such.
  const movements: Array<{ account: string; date: string; cents: number; payout: boolean }> = [];
  const move = (account: string, date: string, amount: number, payout = false) => movements.push({ account, date, cents: toCents(amount), payout });
  const made: { transfers: Extract<LocalXeroLine, { type: 'transfers' }>['made']; spends: LocalXeroBooks['spends'] } = { transfers: [], spends: [] };
  for (const line of lines) {
    if (line.type === 'documents') for (const d of line.made) byId.set(d.ID, { ...d, at: line.at, paid: 0, voided: false });
    if (line.type === 'payments')
      for (const p of line.made) {
        const d = byId.get(p.target);
        if (d) d.paid = fromCents(toCents(d.paid) + toCents(p.Amount));
        // Into the bank account for an invoice, out of it for a credit note's refund.
        move(p.Account, p.Date, d?.Type === 'ACCRECCREDIT' ? -p.Amount : p.Amount);
      }
    if (line.type === 'transfers')
      for (const t of line.made) {
        made.transfers.push(t);
        move(t.From, t.Date, -t.Amount, true);
        move(t.To, t.Date, t.Amount);
      }
    if (line.type === 'spend')
      for (const m of line.made) {
        made.spends.push(m);
        move(m.Account, m.Date, -m.Total, true);
      }
    if (line.type === 'void') {
      const d = byId.get(line.invoiceId);
      if (d) d.voided = true;
    }
  }
  const total = (kept: (m: (typeof movements)[number]) => boolean) => fromCents(movements.filter(kept).reduce((sum, m) => sum + m.cents, 0));
  const balances = Object.fromEntries([...new Set(movements.map((m) => m.account))].map((account) => [account, total((m) => m.account === account)]));
  const transfers = made.transfers.map((t) => ({ ...t, left: total((m) => m.account === t.From && (m.date < t.Date || (m.payout && m.date <= t.Date))) }));
  return { documents: [...byId.values()], balances, transfers, spends: made.spends, calls: lines.length };
}

const isBank = (code: string) => LOCAL_ACCOUNTS.some((a) => a.code === code && a.type === 'BANK');

/** A line's account code and tax type, as Xero checks them on a document or spend money. */
function lineRefusal(lines: Array<{ accountCode: string; taxType: string }>): string | null {
  for (const l of lines) {
    if (!LOCAL_ACCOUNTS.some((a) => a.code === l.accountCode && a.type !== 'BANK')) return `Account code '${l.accountCode}' is not a valid code for this document.`;
    if (!LOCAL_TAX_TYPES.includes(l.taxType)) return `The TaxType code '${l.taxType}' does not exist or cannot be used for this type of transaction.`;
  }
  return null;
}

function refusal(d: AccountingDocument, numbers: Set<string>): string | null {
  if (d.lines.length === 0) return 'A document must have at least one line item.';
  if (d.number && numbers.has(d.number)) return 'Invoice # must be unique.';
  return lineRefusal(d.lines);
}

export function createLocalXero(options: { file?: string } = {}): AccountingProvider {
  const file = options.file ?? localXeroFile();
  const lines = () => readJsonLines<LocalXeroLine>(file);
  type Answered = Exclude<LocalXeroLine, { type: 'void' }>;
  /**
   * One PUT as Xero takes it under an Idempotency-Key: a key seen before answers what it made the first time;
   * otherwise `make` answers each element and what it made is kept, answers and all, in one line.
   */
  const put = async <T extends Answered['type']>(type: T, key: string, make: () => Promise<Pick<Extract<Answered, { type: T }>, 'answers' | 'made'>>) => {
    const seen = (await lines()).find((l): l is Extract<Answered, { type: T }> => l.type === type && l.idempotencyKey === key);
    if (seen) return seen.answers;
    const { answers, made } = await make();
    await appendJsonLines(file, [{ type, at: new Date().toISOString(), idempotencyKey: key, answers, made }]);
    return answers;
  };

  return {
    name: 'local-test',
    authorizeUrl(state, redirectUri) {
      const url = new URL('/api/test-xero', redirectUri);
      url.searchParams.set('state', state);
      url.searchParams.set('redirect_uri', redirectUri);
      return url.href;
    },
    async exchangeCode() {
      return { accessToken: `local-access-${randomUUID()}`, refreshToken: `local-refresh-${randomUUID()}`, expiresIn: 1800 };
    },
    async refresh() {
      return { accessToken: `local-access-${randomUUID()}`, refreshToken: `local-refresh-${randomUUID()}`, expiresIn: 1800 };
    },
    async tenants() {
      return [{ ...LOCAL_TENANT, createdAt: new Date().toISOString() }];
    },
    session(): AccountingSession {
      let calls = 0;
      const postDocuments = (type: 'ACCREC' | 'ACCRECCREDIT', documents: AccountingDocument[], key: string): Promise<Posted[]> => {
        calls += 1;
        return put('documents', key, async () => {
          const books = await localXeroBooks(file);
          const numbers = new Set(books.documents.map((d) => d.Number));
          let credits = books.documents.filter((d) => d.Type === 'ACCRECCREDIT').length;
          const made: LocalXeroDocument[] = [];
          const answers = documents.map((d): Posted => {
            const refused = refusal(d, numbers);
            if (refused) return { key: d.key, ok: false, error: refused };
            if (!d.number) credits += 1;
            const number = d.number ?? `CN-${String(credits).padStart(4, '0')}`;
            numbers.add(number);
            const total = fromCents(d.lines.reduce((sum, l) => sum + Math.round(l.quantity * toCents(l.unitAmount)), 0));
            const totalTax = fromCents(d.lines.reduce((sum, l) => sum + toCents(l.taxAmount), 0));
            const doc: LocalXeroDocument = {
              Type: type,
              ID: randomUUID(),
              Number: number,
              Reference: d.reference,
              Contact: d.contact.name,
              Date: d.date,
              Total: total,
              TotalTax: totalTax,
              LineItems: d.lines.map((l) => ({ Description: l.description, Quantity: l.quantity, UnitAmount: l.unitAmount, AccountCode: l.accountCode, TaxType: l.taxType, TaxAmount: l.taxAmount })),
            };
            made.push(doc);
            return { key: d.key, ok: true, id: doc.ID, number, total, totalTax };
          });
          return { answers, made };
        });
      };
      return {
        get calls() {
          return calls;
        },
        createInvoices: (documents, key) => postDocuments('ACCREC', documents, key),
        createCreditNotes: (documents, key) => postDocuments('ACCRECCREDIT', documents, key),
        createPayments(payments: AccountingPayment[], key) {
          calls += 1;
          return put('payments', key, async () => {
            const books = new Map((await localXeroBooks(file)).documents.map((d) => [d.ID, d]));
            const made: Extract<LocalXeroLine, { type: 'payments' }>['made'] = [];
            const answers = payments.map((p): PostedPayment => {
              const target = 'invoiceId' in p.target ? p.target.invoiceId : p.target.creditNoteId;
              const doc = books.get(target);
              if (!doc) return { key: p.key, ok: false, error: 'Invoice or credit note could not be found.' };
              if (doc.voided) return { key: p.key, ok: false, error: 'Payment cannot be applied to a voided document.' };
              if (!isBank(p.accountCode)) return { key: p.key, ok: false, error: `Account code '${p.accountCode}' is not a bank account.` };
              // Xero's words (its Payments example): an invoice's payment, or a credit note's refund, past what is left on it.
              if (toCents(doc.paid) + toCents(p.amount) > toCents(doc.Total)) return { key: p.key, ok: false, error: 'Payment amount exceeds the amount outstanding on this document' };
              const payment = { PaymentID: randomUUID(), target, Account: p.accountCode, Date: p.date, Amount: p.amount, Reference: p.reference };
              made.push(payment);
              doc.paid = fromCents(toCents(doc.paid) + toCents(p.amount));
              return { key: p.key, ok: true, id: payment.PaymentID };
            });
            return { answers, made };
          });
        },
        async voidInvoice(invoiceId, key) {
          calls += 1;
          if ((await lines()).some((l) => l.type === 'void' && l.idempotencyKey === key)) return null;
          const doc = (await localXeroBooks(file)).documents.find((d) => d.ID === invoiceId);
          if (!doc) return 'The invoice could not be found.';
          // Xero voids only what has no payment on it, in these words.
          if (doc.paid > 0) return 'This document cannot be edited as it has a payment or credit note allocated to it.';
          await appendJsonLines(file, [{ type: 'void', at: new Date().toISOString(), idempotencyKey: key, invoiceId } satisfies LocalXeroLine]);
          return null;
        },
        async createTransfers(transfers, key) {
          const answers: PostedPayment[] = [];
          // One a call under its own key, as the adapter sends them (Xero's PUT /BankTransfers has no summarizeErrors).
          for (const [i, t] of transfers.entries()) {
            calls += 1;
            const answer = await put('transfers', `${key}:${i}`, async () => {
              const refused =
                [t.fromAccountCode, t.toAccountCode].filter((code) => !isBank(code)).map((code) => `Account code '${code}' is not a bank account.`)[0] ??
                (t.fromAccountCode === t.toAccountCode ? 'The from and to bank accounts must be different.' : t.amount > 0 ? null : 'Amount must be greater than zero.');
              if (refused) return { answers: [{ key: t.key, ok: false, error: refused }], made: [] };
              const transfer = { BankTransferID: randomUUID(), From: t.fromAccountCode, To: t.toAccountCode, Date: t.date, Amount: t.amount, Reference: t.reference };
              return { answers: [{ key: t.key, ok: true, id: transfer.BankTransferID }], made: [transfer] };
            });
            answers.push(...answer);
          }
          return answers;
        },
        createSpendMoney(spends, key) {
          calls += 1;
          return put('spend', key, async () => {
            const made: Extract<LocalXeroLine, { type: 'spend' }>['made'] = [];
            const answers = spends.map((m): PostedPayment => {
              if (!isBank(m.bankAccountCode)) return { key: m.key, ok: false, error: `Account code '${m.bankAccountCode}' is not a bank account.` };
              const refused = lineRefusal(m.lines);
              if (refused) return { key: m.key, ok: false, error: refused };
              const spend = {
                BankTransactionID: randomUUID(),
                Account: m.bankAccountCode,
                Contact: m.contact,
                Date: m.date,
                Reference: m.reference,
                Total: fromCents(m.lines.reduce((sum, l) => sum + toCents(l.amount), 0)),
                LineItems: m.lines.map((l) => ({ Description: l.description, UnitAmount: l.amount, AccountCode: l.accountCode, TaxType: l.taxType })),
              };
              made.push(spend);
              return { key: m.key, ok: true, id: spend.BankTransactionID };
            });
            return { answers, made };
          });
        },
        async accounts() {
          calls += 1;
          return LOCAL_ACCOUNTS;
        },
        async taxTypes() {
          calls += 1;
          return LOCAL_TAX_TYPES;
        },
      };
    },
  };
}
