/**
 * Xero: the shop’s sales, school invoices, refunds and Stripe payouts posted to the publisher's organisation through Xero's
 * accounting API, with plain `fetch` (xero-node would add its generated client, axios and openid-client to a
 * function bundle for the nine calls made here, and hides the response headers that carry the rate limits).
 *
 * OAuth 2.0 code flow (https://developer.xero.com/documentation/guides/oauth2/auth-flow/):
 *   GET  https://login.xero.com/identity/connect/authorize?response_type=code&client_id&redirect_uri&scope&state
 *   POST https://identity.xero.com/connect/token (Basic client_id:client_secret) grant_type=authorization_code | refresh_token
 *        → { access_token (30 minutes), refresh_token (60 days, rotated on each use), expires_in }; 400 { error: 'invalid_grant' }
 *   GET  https://api.xero.com/connections → [{ tenantId, tenantType, tenantName, createdDateUtc }]
 * Accounting API (https://developer.xero.com/documentation/api/accounting/overview), base https://api.xero.com/api.xro/2.0,
 * headers Authorization: Bearer, xero-tenant-id, and on every POST/PUT an Idempotency-Key (the same key answers
 * what the first request made):
 *   PUT  /Invoices?summarizeErrors=false     { Invoices: [...] }    → each with StatusAttributeString and ValidationErrors
 *   PUT  /CreditNotes?summarizeErrors=false  { CreditNotes: [...] }
 *   PUT  /Payments?summarizeErrors=false     { Payments: [{ Invoice | CreditNote, Account: { Code }, Date, Amount, Reference }] }
 *   POST /Invoices/{InvoiceID}               { Invoices: [{ InvoiceID, Status: 'VOIDED' }] }
 *   PUT  /BankTransfers                      { BankTransfers: [{ FromBankAccount: { Code }, ToBankAccount: { Code }, Amount, Date, Reference }] }
 *        (no summarizeErrors: a refused transfer is a 400 for the whole request, so each payout's goes alone)
 *   PUT  /BankTransactions?summarizeErrors=false { BankTransactions: [{ Type: 'SPEND', Contact, BankAccount: { Code }, LineItems, … }] }
 *   GET  /Accounts, GET /TaxRates            (the doctor's check of the settings)
 * A refund is a credit note refunded with a Payment from the clearing account (Xero's cash refund, ARCREDITPAYMENT):
 * Xero refuses to allocate a credit note to an invoice already paid ("The invoice you are trying to allocate to has
 * already been paid off"), and every refund the shop makes is of an invoice Xero holds as paid.
 * Errors: 400 { ErrorNumber: 10, Type: 'ValidationException', Message: 'A validation exception occurred', Elements:
 * [{ …the element as sent, ValidationErrors: [{ Message }] }] } (or Message alone), 401 { Title, Detail: 'TokenExpired…' },
 * 429 with Retry-After and X-Rate-Limit-Problem (minute, day), 5xx.
 */
import { z } from 'zod';
import {
  type AccountingDocument,
  type AccountingPayment,
  type AccountingProvider,
  type AccountingSession,
  type AccountingSpend,
  type AccountingTransfer,
  type AccountingTokens,
  AccountingConnectionLapsed,
  type Posted,
  type PostedPayment,
} from './accounting';
import { ProviderError } from './errors';
import { type HttpOptions, type ProviderHttpResponse, requestProvider } from './transport';

const NAME = 'Xero';
/** What the app asks for: offline_access for the refresh token, the rest to post and to read the chart of accounts. */
export const XERO_SCOPES = 'openid profile email offline_access accounting.transactions accounting.settings.read';

export interface XeroOptions extends HttpOptions {
  clientId: string;
  clientSecret: string;
  /** The identity server (tests point it at a local server). */
  identityUrl?: string;
  loginUrl?: string;
}

/** Xero is limiting calls: wait this long before the next (its Retry-After, in seconds). */
export class XeroRateLimited extends ProviderError {
  constructor(
    readonly retryAfterSeconds: number,
    readonly problem: string,
  ) {
    super(NAME, 429, `Xero is limiting calls (${problem} limit): it asked us to wait ${retryAfterSeconds} s.`);
  }
}

const validationSchema = z.object({ ValidationErrors: z.array(z.object({ Message: z.string() })).optional() });
const errorBody = z.object({
  Type: z.string().nullish(),
  Message: z.string().optional(),
  Detail: z.string().optional(),
  Title: z.string().optional(),
  Elements: z.array(validationSchema).optional(),
});

/** The messages of a 400 ValidationException's elements, each once; null for any other answer. */
function validationText(body: unknown): string | null {
  const parsed = errorBody.safeParse(body);
  if (!parsed.success || parsed.data.Type !== 'ValidationException') return null;
  const messages = (parsed.data.Elements ?? []).flatMap((e) => e.ValidationErrors ?? []).map((e) => e.Message);
  return messages.length > 0 ? [...new Set(messages)].join(' ') : null;
}

function errorText(body: unknown): string | null {
  const parsed = errorBody.safeParse(body);
  if (!parsed.success) return null;
  return validationText(body) ?? parsed.data.Detail ?? parsed.data.Message ?? parsed.data.Title ?? null;
}

function failure(what: string, response: ProviderHttpResponse): ProviderError {
  if (response.status === 429) {
    const after = Number(response.headers.get('retry-after'));
    return new XeroRateLimited(Number.isFinite(after) && after > 0 ? after : 60, response.headers.get('x-rate-limit-problem') ?? 'minute');
  }
  const said = errorText(response.body);
  if (response.status === 401 || response.status === 403) {
    return new ProviderError(NAME, response.status, `Xero refused the access token (${response.status}) while ${what}${said ? `: ${said}` : ''}.`);
  }
  return new ProviderError(NAME, response.ok ? 502 : response.status, `Xero refused ${what} (${response.status})${said ? `: ${said}` : ''}.`);
}

const tokenAnswer = z.object({ access_token: z.string().min(1), refresh_token: z.string().min(1), expires_in: z.number() });
const connectionsAnswer = z.array(z.object({ tenantId: z.string(), tenantType: z.string().optional(), tenantName: z.string().nullish(), createdDateUtc: z.string().optional() }));
const itemStatus = {
  StatusAttributeString: z.string().optional(),
  ValidationErrors: z.array(z.object({ Message: z.string() })).optional(),
};
const invoicesAnswer = z.object({
  Invoices: z.array(
    z.object({ InvoiceID: z.string().optional(), InvoiceNumber: z.string().nullish(), Reference: z.string().nullish(), Total: z.number().optional(), TotalTax: z.number().optional(), ...itemStatus }),
  ),
});
const creditNotesAnswer = z.object({
  CreditNotes: z.array(z.object({ CreditNoteID: z.string().optional(), CreditNoteNumber: z.string().nullish(), Total: z.number().optional(), TotalTax: z.number().optional(), ...itemStatus })),
});
const paymentsAnswer = z.object({ Payments: z.array(z.object({ PaymentID: z.string().optional(), ...itemStatus })) });
const transfersAnswer = z.object({ BankTransfers: z.array(z.object({ BankTransferID: z.string().optional(), ...itemStatus })) });
const bankTransactionsAnswer = z.object({ BankTransactions: z.array(z.object({ BankTransactionID: z.string().optional(), ...itemStatus })) });
const accountsAnswer = z.object({ Accounts: z.array(z.object({ Code: z.string().nullish(), Name: z.string(), Type: z.string(), Status: z.string().optional() })) });
const taxRatesAnswer = z.object({ TaxRates: z.array(z.object({ TaxType: z.string() })) });

/** An item's own refusal, when Xero answered the batch but not this element. */
function itemError(item: { StatusAttributeString?: string | undefined; ValidationErrors?: Array<{ Message: string }> | undefined }): string | null {
  const messages = (item.ValidationErrors ?? []).map((e) => e.Message);
  if (messages.length > 0) return messages.join(' ');
  return item.StatusAttributeString === 'ERROR' ? 'Xero refused it without saying why.' : null;
}

function documentBody(d: AccountingDocument, type: 'ACCREC' | 'ACCRECCREDIT') {
  return {
    Type: type,
    Contact: { Name: d.contact.name, ...(d.contact.email ? { EmailAddress: d.contact.email } : {}) },
    Date: d.date,
    ...(d.dueDate ? { DueDate: d.dueDate } : {}),
    ...(d.number ? { [type === 'ACCREC' ? 'InvoiceNumber' : 'CreditNoteNumber']: d.number } : {}),
    Reference: d.reference,
    Status: 'AUTHORISED',
    LineAmountTypes: 'Inclusive',
    LineItems: d.lines.map((l) => ({
      Description: l.description,
      Quantity: l.quantity,
      UnitAmount: l.unitAmount,
      AccountCode: l.accountCode,
      TaxType: l.taxType,
      TaxAmount: l.taxAmount,
    })),
  };
}

function paymentBody(p: AccountingPayment) {
  return {
    ...('invoiceId' in p.target ? { Invoice: { InvoiceID: p.target.invoiceId } } : { CreditNote: { CreditNoteID: p.target.creditNoteId } }),
    Account: { Code: p.accountCode },
    Date: p.date,
    Amount: p.amount,
    Reference: p.reference,
  };
}

function transferBody(t: AccountingTransfer) {
  return { FromBankAccount: { Code: t.fromAccountCode }, ToBankAccount: { Code: t.toAccountCode }, Amount: t.amount, Date: t.date, Reference: t.reference };
}

function spendBody(s: AccountingSpend) {
  return {
    Type: 'SPEND',
    Contact: { Name: s.contact },
    BankAccount: { Code: s.bankAccountCode },
    Date: s.date,
    Reference: s.reference,
    Status: 'AUTHORISED',
    LineAmountTypes: 'Inclusive',
    LineItems: s.lines.map((l) => ({ Description: l.description, Quantity: 1, UnitAmount: l.amount, AccountCode: l.accountCode, TaxType: l.taxType })),
  };
}

/**
 * A 400 ValidationException: Xero refused the request whole and made nothing, so each element carries Xero's words
 * (kept failed, and sent again by a later run under new keys). Null for any other answer.
 */
function refusedWhole(items: Array<{ key: string }>, response: ProviderHttpResponse): Array<{ key: string; ok: false; error: string }> | null {
  const said = response.status === 400 ? validationText(response.body) : null;
  return said ? items.map((i) => ({ key: i.key, ok: false as const, error: said })) : null;
}

/** Each element's answer to a PUT of many (summarizeErrors=false), in the order sent: its id, or Xero's words. */
function eachAnswer<T extends { key: string }>(items: T[], answers: Array<{ id?: string | undefined } & Parameters<typeof itemError>[0]> | undefined, what: string): PostedPayment[] {
  if (!answers || answers.length !== items.length) throw new ProviderError(NAME, 502, `Xero answered the ${what} without one result each.`, { code: 'invalid-response' });
  return items.map((item, i): PostedPayment => {
    const answer = answers[i]!;
    const refused = itemError(answer);
    return refused || !answer.id ? { key: item.key, ok: false, error: refused ?? 'Xero gave it no id.' } : { key: item.key, ok: true, id: answer.id };
  });
}

export function createXero(options: XeroOptions): AccountingProvider {
  // Ten seconds: a scheduled run has Netlify's 30 s; a batch of 50 invoices takes Xero a few seconds.
  const { clientId, clientSecret, fetch: fetchImpl = globalThis.fetch, timeoutMs = 10_000 } = options;
  const api = (options.baseUrl ?? 'https://api.xero.com').replace(/\/$/, '');
  const identity = (options.identityUrl ?? 'https://identity.xero.com').replace(/\/$/, '');
  const login = (options.loginUrl ?? 'https://login.xero.com').replace(/\/$/, '');
  const basic = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;

  async function token(form: Record<string, string>, what: string): Promise<AccountingTokens> {
    const response = await requestProvider(
      NAME,
      fetchImpl,
      `${identity}/connect/token`,
      { method: 'POST', headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }, body: new URLSearchParams(form).toString() },
      timeoutMs,
    );
    if (response.status === 400 && (response.body as { error?: unknown } | undefined)?.error === 'invalid_grant') {
      throw new AccountingConnectionLapsed(`Xero refused the ${what} (invalid_grant): the connection has lapsed or was removed in Xero. Connect to Xero again.`);
    }
    if (!response.ok) throw failure(`the ${what}`, response);
    const parsed = tokenAnswer.safeParse(response.body);
    if (!parsed.success) throw new ProviderError(NAME, 502, `Xero answered the ${what} without its tokens.`, { code: 'invalid-response' });
    return { accessToken: parsed.data.access_token, refreshToken: parsed.data.refresh_token, expiresIn: parsed.data.expires_in };
  }

  return {
    name: 'xero',
    authorizeUrl(state, redirectUri) {
      const query = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: redirectUri, scope: XERO_SCOPES, state });
      return `${login}/identity/connect/authorize?${query}`;
    },
    exchangeCode: (code, redirectUri) => token({ grant_type: 'authorization_code', code, redirect_uri: redirectUri }, 'authorisation code'),
    refresh: (refreshToken) => token({ grant_type: 'refresh_token', refresh_token: refreshToken }, 'refresh token'),
    async tenants(accessToken) {
      const response = await requestProvider(NAME, fetchImpl, `${api}/connections`, { headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' } }, timeoutMs);
      if (!response.ok) throw failure('the list of connected organisations', response);
      const parsed = connectionsAnswer.safeParse(response.body);
      if (!parsed.success) throw new ProviderError(NAME, 502, 'Xero answered the connections without their tenants.', { code: 'invalid-response' });
      return parsed.data
        .filter((c) => (c.tenantType ?? 'ORGANISATION') === 'ORGANISATION')
        .map((c) => ({ tenantId: c.tenantId, tenantName: c.tenantName ?? c.tenantId, createdAt: c.createdDateUtc ?? '' }));
    },
    session(accessToken, tenantId): AccountingSession {
      let calls = 0;
      const call = (method: 'GET' | 'PUT' | 'POST', path: string, body?: unknown, idempotencyKey?: string) => {
        calls += 1;
        const headers: Record<string, string> = { authorization: `Bearer ${accessToken}`, 'xero-tenant-id': tenantId, accept: 'application/json' };
        if (body !== undefined) headers['content-type'] = 'application/json';
        if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
        return requestProvider(NAME, fetchImpl, `${api}/api.xro/2.0${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }, timeoutMs);
      };

      async function postDocuments(kind: 'Invoices' | 'CreditNotes', documents: AccountingDocument[], key: string): Promise<Posted[]> {
        const type = kind === 'Invoices' ? 'ACCREC' : 'ACCRECCREDIT';
        const response = await call('PUT', `/${kind}?summarizeErrors=false`, { [kind]: documents.map((d) => documentBody(d, type)) }, key);
        const refused = refusedWhole(documents, response);
        if (refused) return refused;
        if (!response.ok) throw failure(kind === 'Invoices' ? 'the invoices' : 'the credit notes', response);
        const items =
          kind === 'Invoices'
            ? invoicesAnswer.safeParse(response.body).data?.Invoices.map((i) => ({ ...i, id: i.InvoiceID, number: i.InvoiceNumber ?? null }))
            : creditNotesAnswer.safeParse(response.body).data?.CreditNotes.map((c) => ({ ...c, id: c.CreditNoteID, number: c.CreditNoteNumber ?? null }));
        if (!items || items.length !== documents.length) {
          throw new ProviderError(NAME, 502, `Xero answered ${documents.length} ${kind} with ${items?.length ?? 'no'} results.`, { code: 'invalid-response' });
        }
        // Xero answers the elements in the order they were sent.
        return documents.map((d, i): Posted => {
          const item = items[i]!;
          const refused = itemError(item);
          if (refused || !item.id) return { key: d.key, ok: false, error: refused ?? 'Xero gave it no id.' };
          return { key: d.key, ok: true, id: item.id, number: item.number, total: item.Total ?? 0, totalTax: item.TotalTax ?? 0 };
        });
      }

      return {
        get calls() {
          return calls;
        },
        createInvoices: (documents, key) => postDocuments('Invoices', documents, key),
        createCreditNotes: (documents, key) => postDocuments('CreditNotes', documents, key),
        async createPayments(payments, key): Promise<PostedPayment[]> {
          const response = await call('PUT', '/Payments?summarizeErrors=false', { Payments: payments.map(paymentBody) }, key);
          const refused = refusedWhole(payments, response);
          if (refused) return refused;
          if (!response.ok) throw failure('the payments', response);
          const answers = paymentsAnswer.safeParse(response.body).data?.Payments.map((p) => ({ ...p, id: p.PaymentID }));
          return eachAnswer(payments, answers, 'payments');
        },
        async voidInvoice(invoiceId, key) {
          const response = await call('POST', `/Invoices/${encodeURIComponent(invoiceId)}`, { Invoices: [{ InvoiceID: invoiceId, Status: 'VOIDED' }] }, key);
          const refused = refusedWhole([{ key }], response);
          if (refused) return refused[0]!.error;
          if (!response.ok) throw failure(`the voiding of invoice ${invoiceId}`, response);
          return null;
        },
        async createTransfers(transfers, key) {
          const posted: PostedPayment[] = [];
          // One a call, each under its own key: PUT /BankTransfers has no summarizeErrors, so Xero answers a refused
          // transfer with a 400 for the whole request, which would hold back the payouts sent with it.
          for (const [i, t] of transfers.entries()) {
            const response = await call('PUT', '/BankTransfers', { BankTransfers: [transferBody(t)] }, `${key}:${i}`);
            const refused = refusedWhole([t], response);
            if (refused) {
              posted.push(...refused);
              continue;
            }
            if (!response.ok) throw failure('the bank transfer', response);
            const answers = transfersAnswer.safeParse(response.body).data?.BankTransfers.map((a) => ({ ...a, id: a.BankTransferID }));
            posted.push(...eachAnswer([t], answers, 'bank transfer'));
          }
          return posted;
        },
        async createSpendMoney(spends, key) {
          const response = await call('PUT', '/BankTransactions?summarizeErrors=false', { BankTransactions: spends.map(spendBody) }, key);
          const refused = refusedWhole(spends, response);
          if (refused) return refused;
          if (!response.ok) throw failure('the spend money', response);
          const answers = bankTransactionsAnswer.safeParse(response.body).data?.BankTransactions.map((t) => ({ ...t, id: t.BankTransactionID }));
          return eachAnswer(spends, answers, 'spend money');
        },
        async accounts() {
          const response = await call('GET', '/Accounts');
          if (!response.ok) throw failure('the chart of accounts', response);
          const parsed = accountsAnswer.safeParse(response.body);
          if (!parsed.success) throw new ProviderError(NAME, 502, 'Xero answered the chart of accounts in a shape we do not know.', { code: 'invalid-response' });
          return parsed.data.Accounts.map((a) => ({ code: a.Code ?? '', name: a.Name, type: a.Type, status: a.Status ?? 'ACTIVE' }));
        },
        async taxTypes() {
          const response = await call('GET', '/TaxRates');
          if (!response.ok) throw failure('the tax rates', response);
          const parsed = taxRatesAnswer.safeParse(response.body);
          if (!parsed.success) throw new ProviderError(NAME, 502, 'Xero answered the tax rates in a shape we do not know.', { code: 'invalid-response' });
          return parsed.data.TaxRates.map((t) => t.TaxType);
        },
      };
    },
  };
}
