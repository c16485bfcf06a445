/**
 * Accounting: the shape the shop needs from the books it posts its sales to. The real adapter is Xero's accounting
 * API (xero.ts); locally, the TEST stand-in (local-xero.ts), which keeps what it was sent and answers as Xero does.
 * Amounts are dollars with cents, as Xero's API takes them; every line is tax inclusive, as the shop's prices are.
 */

/** What Xero's identity server gives for a code or a refresh token. */
export interface AccountingTokens {
  accessToken: string;
  refreshToken: string;
  /** Seconds the access token lasts (Xero: 1,800). */
  expiresIn: number;
}

/** An organisation the publisher allowed the app to reach. */
export interface AccountingTenant {
  tenantId: string;
  tenantName: string;
  /** When it was connected: the newest is the one just chosen on the consent screen. */
  createdAt: string;
}

export interface AccountingLine {
  description: string;
  quantity: number;
  unitAmount: number;
  accountCode: string;
  taxType: string;
  /** The GST in this line, set by the shop so the document's GST is the one its tax invoice stated. */
  taxAmount: number;
}

/** An ACCREC invoice or an ACCRECCREDIT credit note. `key` is the shop's ledger key, to match the answer to it. */
export interface AccountingDocument {
  key: string;
  /** The invoice's own number (Xero's InvoiceNumber); credit notes take Xero's numbering (null). */
  number: string | null;
  reference: string;
  contact: { name: string; email?: string | undefined };
  /** yyyy-mm-dd */
  date: string;
  dueDate?: string | undefined;
  lines: AccountingLine[];
}

export interface AccountingPayment {
  key: string;
  /** Into (an invoice) or out of (a credit note's refund) the clearing account. */
  target: { invoiceId: string } | { creditNoteId: string };
  accountCode: string;
  date: string;
  amount: number;
  reference: string;
}

/** Money moved between two of the organisation's bank accounts: a payout, from the clearing account to the bank. */
export interface AccountingTransfer {
  key: string;
  fromAccountCode: string;
  toAccountCode: string;
  date: string;
  amount: number;
  reference: string;
}

/** Spend money out of a bank account (Xero's SPEND bank transaction): Stripe's fees out of the clearing account. */
export interface AccountingSpend {
  key: string;
  bankAccountCode: string;
  contact: string;
  date: string;
  reference: string;
  /** Tax inclusive, as Stripe states its fees. */
  lines: Array<{ description: string; amount: number; accountCode: string; taxType: string }>;
}

/** One document's answer: Xero's id, number and figures, or the words it refused it with. */
export type Posted = { key: string; ok: true; id: string; number: string | null; total: number; totalTax: number } | { key: string; ok: false; error: string };
export type PostedPayment = { key: string; ok: true; id: string } | { key: string; ok: false; error: string };

export interface AccountingAccount {
  code: string;
  name: string;
  type: string;
  status: string;
}

/** The calls made for one organisation with one access token. Each POST carries the Idempotency-Key given. */
export interface AccountingSession {
  createInvoices(documents: AccountingDocument[], idempotencyKey: string): Promise<Posted[]>;
  createCreditNotes(documents: AccountingDocument[], idempotencyKey: string): Promise<Posted[]>;
  createPayments(payments: AccountingPayment[], idempotencyKey: string): Promise<PostedPayment[]>;
  /** Null once voided; Xero's words when it refuses (an invoice with a payment on it in Xero, say). */
  voidInvoice(invoiceId: string, idempotencyKey: string): Promise<string | null>;
  createTransfers(transfers: AccountingTransfer[], idempotencyKey: string): Promise<PostedPayment[]>;
  createSpendMoney(spends: AccountingSpend[], idempotencyKey: string): Promise<PostedPayment[]>;
  /** The organisation's chart of accounts (bank accounts included) and its tax types, for the doctor. */
  accounts(): Promise<AccountingAccount[]>;
  taxTypes(): Promise<string[]>;
  /** How many calls this session has made: Xero allows 60 a minute and 5,000 a day per organisation. */
  readonly calls: number;
}

export interface AccountingProvider {
  name: 'xero' | 'local-test';
  /** The consent page the publisher is sent to; it comes back to `redirectUri` with a code and the state. */
  authorizeUrl(state: string, redirectUri: string): string;
  exchangeCode(code: string, redirectUri: string): Promise<AccountingTokens>;
  /** A new access token and a new refresh token (Xero rotates it: the old one stops working). */
  refresh(refreshToken: string): Promise<AccountingTokens>;
  tenants(accessToken: string): Promise<AccountingTenant[]>;
  session(accessToken: string, tenantId: string): AccountingSession;
}

/** Xero refused the refresh token (lapsed after 60 days unused, or the app was disconnected): connect again. */
export class AccountingConnectionLapsed extends Error {
  override name = 'AccountingConnectionLapsed';
}
