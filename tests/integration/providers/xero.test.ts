/**
 * The Xero adapter against a local server answering as Xero's documentation shows: the token endpoint (Basic auth,
 * a form; 400 invalid_grant for a lapsed refresh token), /connections, and the accounting API with the tenant header
 * and an Idempotency-Key on every PUT and POST: 200 with each element's status (summarizeErrors=false), 400
 * validation errors, 401 for an expired token, 429 with Retry-After, 500, and no answer at all.
 */
import { describe, expect, it } from 'vitest';
import { AccountingConnectionLapsed, type AccountingDocument } from '../../../functions/_lib/providers/accounting';
import { ProviderError } from '../../../functions/_lib/providers/errors';
import { createXero, XERO_SCOPES, XeroRateLimited } from '../../../functions/_lib/providers/xero';
import { sendJson, useFakeProvider, type Handler } from '../../helpers/fake-provider';

const CLIENT_ID = 'xero-client';
const CLIENT_SECRET = 'xero-secret';
const ACCESS = 'access-token-1';
const TENANT = '6e2b7d1c-0000-4000-8000-0000000000aa';

const fake = useFakeProvider();

/** Xero's gateway first: the accounting API wants the bearer token and the tenant, or answers 401/403. */
async function fakeXero(handler: Handler): Promise<string> {
  const { url } = await fake.start((seen, response) => {
    if (seen.path.startsWith('/api.xro/') && (seen.headers.authorization !== `Bearer ${ACCESS}` || seen.headers['xero-tenant-id'] !== TENANT)) {
      return sendJson(response, 401, { Type: null, Title: 'Unauthorized', Status: 401, Detail: 'AuthenticationUnsuccessful' });
    }
    handler(seen, response);
  });
  return url;
}

const xero = (url: string, timeoutMs?: number) => createXero({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, baseUrl: url, identityUrl: url, loginUrl: url, timeoutMs });

const DOC: AccountingDocument = {
  key: 'sale:ok',
  number: 'WEB-1001',
  reference: '1001',
  contact: { name: 'Online shop customers' },
  date: '2026-11-28',
  dueDate: '2026-11-28',
  lines: [{ description: 'The Rosary Book', quantity: 2, unitAmount: 22, accountCode: '200', taxType: 'OUTPUT', taxAmount: 4 }],
};

describe('Xero sign-in: the OAuth 2.0 code flow', () => {
  it('sends the publisher to the consent page with the scopes, exchanges the code and refreshes with Basic auth, and lists the organisations', async () => {
    const url = await fakeXero((seen, res) => {
      if (seen.path === '/connect/token') return sendJson(res, 200, { access_token: ACCESS, refresh_token: 'refresh-2', expires_in: 1800, token_type: 'Bearer' });
      if (seen.path === '/connections') {
        return sendJson(res, 200, [
          { id: 'c1', tenantId: TENANT, tenantType: 'ORGANISATION', tenantName: 'Publisher Pty Ltd', createdDateUtc: '2026-11-28T01:00:00.0000000' },
          { id: 'c2', tenantId: 'practice', tenantType: 'PRACTICE', tenantName: 'The accountants', createdDateUtc: '2026-11-28T02:00:00.0000000' },
        ]);
      }
      sendJson(res, 404, {});
    });
    const consent = new URL(xero(url).authorizeUrl('state-1', 'https://shop.example/api/xero-callback'));
    expect(consent.pathname).toBe('/identity/connect/authorize');
    expect(Object.fromEntries(consent.searchParams)).toEqual({
      response_type: 'code',
      client_id: CLIENT_ID,
      redirect_uri: 'https://shop.example/api/xero-callback',
      scope: XERO_SCOPES,
      state: 'state-1',
    });
    expect(XERO_SCOPES).toContain('offline_access');

    expect(await xero(url).exchangeCode('code-1', 'https://shop.example/api/xero-callback')).toEqual({ accessToken: ACCESS, refreshToken: 'refresh-2', expiresIn: 1800 });
    expect(fake.seen[0]!.headers.authorization).toBe(`Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`);
    expect(Object.fromEntries(new URLSearchParams(fake.seen[0]!.body))).toEqual({ grant_type: 'authorization_code', code: 'code-1', redirect_uri: 'https://shop.example/api/xero-callback' });
    await xero(url).refresh('refresh-1');
    expect(Object.fromEntries(new URLSearchParams(fake.seen[1]!.body))).toEqual({ grant_type: 'refresh_token', refresh_token: 'refresh-1' });
    expect(await xero(url).tenants(ACCESS)).toEqual([{ tenantId: TENANT, tenantName: 'Publisher Pty Ltd', createdAt: '2026-11-28T01:00:00.0000000' }]);
  });

  it('a refresh token Xero no longer accepts (invalid_grant) means connecting again; a token endpoint that fails is a ProviderError', async () => {
    let down = false;
    const url = await fakeXero((_seen, res) => (down ? sendJson(res, 503, { error: 'temporarily_unavailable' }) : sendJson(res, 400, { error: 'invalid_grant' })));
    await expect(xero(url).refresh('lapsed')).rejects.toBeInstanceOf(AccountingConnectionLapsed);
    down = true;
    await expect(xero(url).refresh('fine')).rejects.toMatchObject({ name: 'ProviderError', status: 503 });
  });
});

describe('Xero accounting calls', () => {
  it('PUTs invoices tax inclusive with the tenant and the Idempotency-Key, and reads each element’s own answer', async () => {
    const url = await fakeXero((_seen, res) =>
      sendJson(res, 200, {
        Invoices: [
          { InvoiceID: 'inv-1', InvoiceNumber: 'WEB-1001', Total: 44, TotalTax: 4, StatusAttributeString: 'OK' },
          { InvoiceNumber: 'WEB-1002', StatusAttributeString: 'ERROR', ValidationErrors: [{ Message: "Account code '999' is not a valid code for this document." }] },
        ],
      }),
    );
    const session = xero(url).session(ACCESS, TENANT);
    const answers = await session.createInvoices([DOC, { ...DOC, key: 'sale:bad', number: 'WEB-1002' }], 'batch-1:invoices');
    expect(answers).toEqual([
      { key: 'sale:ok', ok: true, id: 'inv-1', number: 'WEB-1001', total: 44, totalTax: 4 },
      { key: 'sale:bad', ok: false, error: "Account code '999' is not a valid code for this document." },
    ]);
    const seen = fake.seen[0]!;
    expect(seen).toMatchObject({ method: 'PUT', path: '/api.xro/2.0/Invoices?summarizeErrors=false' });
    expect(seen.headers['idempotency-key']).toBe('batch-1:invoices');
    expect(JSON.parse(seen.body).Invoices[0]).toEqual({
      Type: 'ACCREC',
      Contact: { Name: 'Online shop customers' },
      Date: '2026-11-28',
      DueDate: '2026-11-28',
      InvoiceNumber: 'WEB-1001',
      Reference: '1001',
      Status: 'AUTHORISED',
      LineAmountTypes: 'Inclusive',
      LineItems: [{ Description: 'The Rosary Book', Quantity: 2, UnitAmount: 22, AccountCode: '200', TaxType: 'OUTPUT', TaxAmount: 4 }],
    });
    expect(session.calls).toBe(1);
  });

  it('credit notes, their refunds and an invoice’s payment into the clearing account; a void POSTs the invoice VOIDED', async () => {
    const url = await fakeXero((seen, res) => {
      if (seen.path.startsWith('/api.xro/2.0/CreditNotes')) return sendJson(res, 200, { CreditNotes: [{ CreditNoteID: 'cn-1', CreditNoteNumber: 'CN-0001', Total: 11, TotalTax: 1 }] });
      if (seen.path.startsWith('/api.xro/2.0/Payments')) return sendJson(res, 200, { Payments: [{ PaymentID: 'pay-1', StatusAttributeString: 'OK' }, { PaymentID: 'pay-2' }] });
      sendJson(res, 200, { Invoices: [{ InvoiceID: 'inv-9', Status: 'VOIDED' }] });
    });
    const session = xero(url).session(ACCESS, TENANT);
    expect(await session.createCreditNotes([{ ...DOC, key: 'credit:1', number: null }], 'b:credit-notes')).toEqual([
      { key: 'credit:1', ok: true, id: 'cn-1', number: 'CN-0001', total: 11, totalTax: 1 },
    ]);
    expect(JSON.parse(fake.seen[0]!.body).CreditNotes[0]).toMatchObject({ Type: 'ACCRECCREDIT', Status: 'AUTHORISED', LineAmountTypes: 'Inclusive' });
    const paid = await session.createPayments(
      [
        { key: 'credit:1', target: { creditNoteId: 'cn-1' }, accountCode: 'STRIPE', date: '2026-11-28', amount: 11, reference: 'Stripe refund · order 1001' },
        { key: 'sale:2', target: { invoiceId: 'inv-2' }, accountCode: 'STRIPE', date: '2026-11-28', amount: 44, reference: 'Stripe · order 1002' },
      ],
      'b:refunds',
    );
    expect(paid).toEqual([
      { key: 'credit:1', ok: true, id: 'pay-1' },
      { key: 'sale:2', ok: true, id: 'pay-2' },
    ]);
    expect(JSON.parse(fake.seen[1]!.body).Payments).toEqual([
      { CreditNote: { CreditNoteID: 'cn-1' }, Account: { Code: 'STRIPE' }, Date: '2026-11-28', Amount: 11, Reference: 'Stripe refund · order 1001' },
      { Invoice: { InvoiceID: 'inv-2' }, Account: { Code: 'STRIPE' }, Date: '2026-11-28', Amount: 44, Reference: 'Stripe · order 1002' },
    ]);
    expect(await session.voidInvoice('inv-9', 'b:void:school_void:x')).toBeNull();
    expect(fake.seen[2]).toMatchObject({ method: 'POST', path: '/api.xro/2.0/Invoices/inv-9' });
    expect(JSON.parse(fake.seen[2]!.body)).toEqual({ Invoices: [{ InvoiceID: 'inv-9', Status: 'VOIDED' }] });
    expect(fake.seen.every((s) => s.headers['idempotency-key'])).toBe(true);
  });

  it('a 400 validation error carries Xero’s words; 401 an expired token; 429 its Retry-After; 500 Xero’s failure; no answer a timeout', async () => {
    let answer: (res: Parameters<Handler>[1]) => void = () => {};
    const url = await fakeXero((_seen, res) => answer(res));
    const session = xero(url, 300).session(ACCESS, TENANT);

    // Refused whole, nothing made: each document carries Xero's words, to be sent again under new keys.
    answer = (res) =>
      sendJson(res, 400, { ErrorNumber: 10, Type: 'ValidationException', Message: 'A validation exception occurred', Elements: [{ ValidationErrors: [{ Message: 'Invoice # must be unique.' }] }] });
    expect(await session.createInvoices([DOC], 'k1')).toEqual([{ key: 'sale:ok', ok: false, error: 'Invoice # must be unique.' }]);
    answer = (res) =>
      sendJson(res, 400, {
        ErrorNumber: 10,
        Type: 'ValidationException',
        Message: 'A validation exception occurred',
        Elements: [{ InvoiceID: 'inv-9', ValidationErrors: [{ Message: 'This document cannot be edited as it has a payment or credit note allocated to it.' }] }],
      });
    expect(await session.voidInvoice('inv-9', 'k1v')).toBe('This document cannot be edited as it has a payment or credit note allocated to it.');
    answer = (res) => sendJson(res, 400, { Title: 'Bad request', Detail: 'The request body could not be read.' });
    await expect(session.createInvoices([DOC], 'k1b')).rejects.toMatchObject({ status: 400, message: expect.stringContaining('The request body could not be read.') });

    answer = (res) => sendJson(res, 401, { Type: null, Title: 'Unauthorized', Status: 401, Detail: 'TokenExpired: token expired at 11/28/2026 01:00:00' });
    await expect(session.createInvoices([DOC], 'k2')).rejects.toMatchObject({ status: 401, message: expect.stringContaining('TokenExpired') });

    answer = (res) => sendJson(res, 429, {}, { 'retry-after': '37', 'x-rate-limit-problem': 'minute' });
    const limited = await session.createPayments([], 'k3').catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(XeroRateLimited);
    expect(limited).toMatchObject({ status: 429, retryAfterSeconds: 37, problem: 'minute' });

    answer = (res) => sendJson(res, 500, { Message: 'An error occurred in Xero.' });
    await expect(session.createCreditNotes([DOC], 'k4')).rejects.toMatchObject({ status: 500, message: expect.stringContaining('An error occurred in Xero.') });

    answer = () => {};
    const silent = await session.accounts().catch((e: unknown) => e);
    expect(silent).toBeInstanceOf(ProviderError);
    expect(silent).toMatchObject({ code: 'timeout', status: 504 });
  });

  it('reads the chart of accounts and the tax types for the doctor', async () => {
    const url = await fakeXero((seen, res) =>
      seen.path.endsWith('/Accounts')
        ? sendJson(res, 200, {
            Accounts: [
              { Code: '200', Name: 'Sales', Type: 'REVENUE', Status: 'ACTIVE' },
              { Name: 'Stripe', Type: 'BANK', Code: 'STRIPE' },
            ],
          })
        : sendJson(res, 200, {
            TaxRates: [
              { TaxType: 'OUTPUT', Name: 'GST on Income' },
              { TaxType: 'EXEMPTEXPORT', Name: 'GST Free Exports' },
            ],
          }),
    );
    const session = xero(url).session(ACCESS, TENANT);
    expect(await session.accounts()).toEqual([
      { code: '200', name: 'Sales', type: 'REVENUE', status: 'ACTIVE' },
      { code: 'STRIPE', name: 'Stripe', type: 'BANK', status: 'ACTIVE' },
    ]);
    expect(await session.taxTypes()).toEqual(['OUTPUT', 'EXEMPTEXPORT']);
  });
});

describe('Xero: a Stripe payout, as a bank transfer and the fees as spend money', () => {
  const TRANSFER = { key: 'payout:po_1', fromAccountCode: 'STRIPE', toAccountCode: '090', date: '2026-11-29', amount: 101.37, reference: 'Stripe payout po_1' };
  const FEES = {
    key: 'payout:po_1',
    bankAccountCode: 'STRIPE',
    contact: 'Stripe',
    date: '2026-11-29',
    reference: 'Stripe fees · payout po_1',
    lines: [{ description: 'Stripe fees for payout po_1', amount: 2.63, accountCode: '404', taxType: 'INPUT' }],
  };
  /** Xero's 400 for a request it refuses: the element as sent, with its validation errors. */
  const validation = (element: Record<string, unknown>, message: string) => ({
    ErrorNumber: 10,
    Type: 'ValidationException',
    Message: 'A validation exception occurred',
    Elements: [{ ...element, ValidationErrors: [{ Message: message }] }],
  });

  it('PUTs each transfer alone (BankTransfers has no summarizeErrors), so a refused one refuses only itself', async () => {
    const url = await fakeXero((seen, res) => {
      const [sent] = JSON.parse(seen.body).BankTransfers as Array<{ FromBankAccount: { Code: string }; ToBankAccount: { Code: string } }>;
      if (sent!.FromBankAccount.Code === sent!.ToBankAccount.Code) return sendJson(res, 400, validation(sent!, 'The from and to bank accounts must be different.'));
      sendJson(res, 200, { Id: 'r-1', Status: 'OK', BankTransfers: [{ BankTransferID: 'bt-1', Amount: 101.37, Status: 'AUTHORISED', ValidationErrors: [] }] });
    });
    const session = xero(url).session(ACCESS, TENANT);
    expect(await session.createTransfers([{ ...TRANSFER, key: 'payout:po_2', toAccountCode: 'STRIPE' }, TRANSFER], 'b:transfers')).toEqual([
      { key: 'payout:po_2', ok: false, error: 'The from and to bank accounts must be different.' },
      { key: 'payout:po_1', ok: true, id: 'bt-1' },
    ]);
    expect(fake.seen.map((s) => [s.method, s.path, s.headers['idempotency-key']])).toEqual([
      ['PUT', '/api.xro/2.0/BankTransfers', 'b:transfers:0'],
      ['PUT', '/api.xro/2.0/BankTransfers', 'b:transfers:1'],
    ]);
    expect(JSON.parse(fake.seen[1]!.body)).toEqual({
      BankTransfers: [{ FromBankAccount: { Code: 'STRIPE' }, ToBankAccount: { Code: '090' }, Amount: 101.37, Date: '2026-11-29', Reference: 'Stripe payout po_1' }],
    });
    expect(session.calls).toBe(2);
  });

  it('PUTs the fees as spend money from the clearing account, reading each element’s own refusal (summarizeErrors=false)', async () => {
    const url = await fakeXero((_seen, res) =>
      sendJson(res, 200, {
        Id: 'r-2',
        Status: 'OK',
        BankTransactions: [
          { BankTransactionID: 'spend-1', Type: 'SPEND', StatusAttributeString: 'OK' },
          {
            BankTransactionID: '00000000-0000-0000-0000-000000000000',
            Type: 'SPEND',
            StatusAttributeString: 'ERROR',
            ValidationErrors: [{ Message: 'Account code 999 is not a valid code for this document.' }],
          },
        ],
      }),
    );
    const session = xero(url).session(ACCESS, TENANT);
    const refused = { ...FEES, key: 'payout:po_2', lines: [{ ...FEES.lines[0]!, accountCode: '999' }] };
    expect(await session.createSpendMoney([FEES, refused], 'b:fees')).toEqual([
      { key: 'payout:po_1', ok: true, id: 'spend-1' },
      { key: 'payout:po_2', ok: false, error: 'Account code 999 is not a valid code for this document.' },
    ]);
    expect(fake.seen[0]).toMatchObject({ method: 'PUT', path: '/api.xro/2.0/BankTransactions?summarizeErrors=false' });
    expect(fake.seen[0]!.headers['idempotency-key']).toBe('b:fees');
    expect(JSON.parse(fake.seen[0]!.body).BankTransactions[0]).toEqual({
      Type: 'SPEND',
      Contact: { Name: 'Stripe' },
      BankAccount: { Code: 'STRIPE' },
      Date: '2026-11-29',
      Reference: 'Stripe fees · payout po_1',
      Status: 'AUTHORISED',
      LineAmountTypes: 'Inclusive',
      LineItems: [{ Description: 'Stripe fees for payout po_1', Quantity: 1, UnitAmount: 2.63, AccountCode: '404', TaxType: 'INPUT' }],
    });
  });

  it('a 400 ValidationException refuses each element with Xero’s words; 429 its Retry-After; 500 and an answer without one result each end the call', async () => {
    let answer: (res: Parameters<Handler>[1]) => void = () => {};
    const url = await fakeXero((_seen, res) => answer(res));
    const session = xero(url).session(ACCESS, TENANT);

    answer = (res) => sendJson(res, 400, validation({ Type: 'SPEND', BankAccount: { Code: 'STRIPE' } }, 'Account code 404 is not a valid code for this document.'));
    expect(await session.createSpendMoney([FEES], 'k1')).toEqual([{ key: 'payout:po_1', ok: false, error: 'Account code 404 is not a valid code for this document.' }]);
    answer = (res) => sendJson(res, 400, validation({ FromBankAccount: { Code: 'NOPE' }, ToBankAccount: { Code: '090' } }, 'The FromBankAccount could not be found.'));
    expect(await session.createTransfers([TRANSFER], 'k2')).toEqual([{ key: 'payout:po_1', ok: false, error: 'The FromBankAccount could not be found.' }]);

    answer = (res) => sendJson(res, 429, {}, { 'retry-after': '12', 'x-rate-limit-problem': 'minute' });
    const limited = await session.createTransfers([TRANSFER], 'k3').catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(XeroRateLimited);
    expect(limited).toMatchObject({ retryAfterSeconds: 12 });

    answer = (res) => sendJson(res, 500, { Message: 'An error occurred in Xero.' });
    await expect(session.createTransfers([TRANSFER], 'k4')).rejects.toMatchObject({ status: 500, message: expect.stringContaining('Xero refused the bank transfer (500): An error occurred in Xero.') });
    answer = (res) => sendJson(res, 200, { BankTransactions: [] });
    await expect(session.createSpendMoney([FEES], 'k5')).rejects.toMatchObject({ status: 502, code: 'invalid-response' });
  });
});
