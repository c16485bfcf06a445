/**
 * LOCAL STAND-IN for Xero, used only on the local server when no Xero app is set (XERO_CLIENT_ID). It answers in the
 * shapes of Xero's accounting API: its consent screen is the TEST page (/api/test-xero), which offers one TEST
 * organisation; invoices, credit notes, payments, voids, bank transfers and spend money are kept as one JSON line per call in LOCAL_XERO_FILE
 * (default local/.data/xero.jsonl), each with its Idempotency-Key, and a key seen before answers what it made the
 * first time, as Xero does. It refuses what Xero refuses: an account code or tax type the organisation does not
 * have, an invoice number already used, a payment to a voided invoice.
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
  transfers: Extract<LocalXeroLine, { type: 'transfers' }>['made'];
  spends: Extract<LocalXeroLine, { type: 'spend' }>['made'];
  calls: number;
}

export async function localXeroBooks(file = localXeroFile()): Promise<LocalXeroBooks> {
  const lines = await readJsonLines<LocalXeroLine>(file);
  const byId = new Map<string, LocalXeroBooks['documents'][number]>();
  const cents = new Map<string, number>();
  const move = (account: string, amount: number) => cents.set(account, (cents.get(account) ?? 0) + toCents(amount));
  const books: Omit<LocalXeroBooks, 'documents' | 'balances' | 'calls'> = { transfers: [], spends: [] };
  for (const line of lines) {
    if (line.type === 'documents') for (const d of line.made) byId.set(d.ID, { ...d, at: line.at, paid: 0, voided: false });
    if (line.type === 'payments')
      for (const p of line.made) {
        const d = byId.get(p.target);
        if (d) d.paid = fromCents(toCents(d.paid) + toCents(p.Amount));
        // Into the bank account for an invoice, out of it for a credit note's refund.
        move(p.Account, d?.Type === 'ACCRECCREDIT' ? -p.Amount : p.Amount);
      }
    if (line.type === 'transfers')
      for (const t of line.made) {
        books.transfers.push(t);
        move(t.From, -t.Amount);
        move(t.To, t.Amount);
      }
    if (line.type === 'spend')
      for (const m of line.made) {
        books.spends.push(m);
        move(m.Account, -m.Total);
      }
    if (line.type === 'void') {
      const d = byId.get(line.invoiceId);
      if (d) d.voided = true;
    }
  }
  const balances = Object.fromEntries([...cents].map(([account, c]) => [account, fromCents(c)]));
  return { documents: [...byId.values()], balances, ...books, calls: lines.length };
}

const isBank = (code: string) => LOCAL_ACCOUNTS.some((a) => a.code === code && a.type === 'BANK');

function refusal(d: AccountingDocument, numbers: Set<string>): string | null {
  if (d.lines.length === 0) return 'A document must have at least one line item.';
  for (const l of d.lines) {
    if (!LOCAL_ACCOUNTS.some((a) => a.code === l.accountCode && a.type !== 'BANK')) return `Account code '${l.accountCode}' is not a valid code for this document.`;
    if (!LOCAL_TAX_TYPES.includes(l.taxType)) return `The TaxType code '${l.taxType}' does not exist or cannot be used for this type of transaction.`;
  }
  if (d.number && numbers.has(d.number)) return 'Invoice # must be unique.';
  return null;
}

export function createLocalXero(options: { file?: string } = {}): AccountingProvider {
  const file = options.file ?? localXeroFile();
  const replay = async <T extends LocalXeroLine['type']>(type: T, key: string) =>
    (await readJsonLines<LocalXeroLine>(file)).find((l): l is Extract<LocalXeroLine, { type: T }> => l.type === type && l.idempotencyKey === key);

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
      const postDocuments = async (type: 'ACCREC' | 'ACCRECCREDIT', documents: AccountingDocument[], key: string): Promise<Posted[]> => {
        calls += 1;
        const seen = await replay('documents', key);
        if (seen) return seen.answers;
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
        await appendJsonLines(file, [{ type: 'documents', at: new Date().toISOString(), idempotencyKey: key, answers, made } satisfies LocalXeroLine]);
        return answers;
      };
      return {
        get calls() {
          return calls;
        },
        createInvoices: (documents, key) => postDocuments('ACCREC', documents, key),
        createCreditNotes: (documents, key) => postDocuments('ACCRECCREDIT', documents, key),
        async createPayments(payments: AccountingPayment[], key) {
          calls += 1;
          const seen = await replay('payments', key);
          if (seen) return seen.answers;
          const books = new Map((await localXeroBooks(file)).documents.map((d) => [d.ID, d]));
          const made: Extract<LocalXeroLine, { type: 'payments' }>['made'] = [];
          const answers = payments.map((p): PostedPayment => {
            const target = 'invoiceId' in p.target ? p.target.invoiceId : p.target.creditNoteId;
            const doc = books.get(target);
            if (!doc) return { key: p.key, ok: false, error: 'Invoice or credit note could not be found.' };
            if (doc.voided) return { key: p.key, ok: false, error: 'Payment cannot be applied to a voided document.' };
            if (!LOCAL_ACCOUNTS.some((a) => a.code === p.accountCode && a.type === 'BANK')) return { key: p.key, ok: false, error: `Account code '${p.accountCode}' is not a bank account.` };
            if (toCents(doc.paid) + toCents(p.amount) > toCents(doc.Total)) return { key: p.key, ok: false, error: 'Payment amount exceeds the amount outstanding on this document.' };
            const payment = { PaymentID: randomUUID(), target, Account: p.accountCode, Date: p.date, Amount: p.amount, Reference: p.reference };
            made.push(payment);
            doc.paid = fromCents(toCents(doc.paid) + toCents(p.amount));
            return { key: p.key, ok: true, id: payment.PaymentID };
          });
          await appendJsonLines(file, [{ type: 'payments', at: new Date().toISOString(), idempotencyKey: key, answers, made } satisfies LocalXeroLine]);
          return answers;
        },
        async voidInvoice(invoiceId, key) {
          calls += 1;
          if (await replay('void', key)) return;
          await appendJsonLines(file, [{ type: 'void', at: new Date().toISOString(), idempotencyKey: key, invoiceId } satisfies LocalXeroLine]);
        },
        async createTransfers(transfers, key) {
          calls += 1;
          const seen = await replay('transfers', key);
          if (seen) return seen.answers;
          const made: Extract<LocalXeroLine, { type: 'transfers' }>['made'] = [];
          const answers = transfers.map((t): PostedPayment => {
            const refused = [t.fromAccountCode, t.toAccountCode].find((code) => !isBank(code));
            if (refused) return { key: t.key, ok: false, error: `Account code '${refused}' is not a bank account.` };
            if (t.fromAccountCode === t.toAccountCode) return { key: t.key, ok: false, error: 'The from and to bank accounts must be different.' };
            if (!(t.amount > 0)) return { key: t.key, ok: false, error: 'Amount must be greater than zero.' };
            const transfer = { BankTransferID: randomUUID(), From: t.fromAccountCode, To: t.toAccountCode, Date: t.date, Amount: t.amount, Reference: t.reference };
            made.push(transfer);
            return { key: t.key, ok: true, id: transfer.BankTransferID };
          });
          await appendJsonLines(file, [{ type: 'transfers', at: new Date().toISOString(), idempotencyKey: key, answers, made } satisfies LocalXeroLine]);
          return answers;
        },
        async createSpendMoney(spends, key) {
          calls += 1;
          const seen = await replay('spend', key);
          if (seen) return seen.answers;
          const made: Extract<LocalXeroLine, { type: 'spend' }>['made'] = [];
          const answers = spends.map((m): PostedPayment => {
            if (!isBank(m.bankAccountCode)) return { key: m.key, ok: false, error: `Account code '${m.bankAccountCode}' is not a bank account.` };
            for (const l of m.lines) {
              if (!LOCAL_ACCOUNTS.some((a) => a.code === l.accountCode && a.type !== 'BANK'))
                return { key: m.key, ok: false, error: `Account code '${l.accountCode}' is not a valid code for this document.` };
              if (!LOCAL_TAX_TYPES.includes(l.taxType)) return { key: m.key, ok: false, error: `The TaxType code '${l.taxType}' does not exist or cannot be used for this type of transaction.` };
            }
            const total = fromCents(m.lines.reduce((sum, l) => sum + toCents(l.amount), 0));
            const spend = {
              BankTransactionID: randomUUID(),
              Account: m.bankAccountCode,
              Contact: m.contact,
              Date: m.date,
              Reference: m.reference,
              Total: total,
              LineItems: m.lines.map((l) => ({ Description: l.description, UnitAmount: l.amount, AccountCode: l.accountCode, TaxType: l.taxType })),
            };
            made.push(spend);
            return { key: m.key, ok: true, id: spend.BankTransactionID };
          });
          await appendJsonLines(file, [{ type: 'spend', at: new Date().toISOString(), idempotencyKey: key, answers, made } satisfies LocalXeroLine]);
          return answers;
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
