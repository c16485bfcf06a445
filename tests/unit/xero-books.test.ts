import { describe, expect, it } from 'vitest';
import { creditNoteDocument, invoiceDocument, invoicePayment, type LedgerDocument, refundPayment, XERO_DEFAULTS } from '../../functions/_lib/xero-books';
import { connectionProblem, lastSyncText, syncRunning, waitingText } from '../../src/features/accounting/rules';
import { settingsProblems } from '../../tools/doctor/checks/xero';

const sale = (over: Partial<LedgerDocument> = {}): LedgerDocument => ({
  key: 'sale:00000000-0000-4000-8000-000000000001',
  kind: 'sale',
  order_id: '00000000-0000-4000-8000-000000000001',
  number: 1042,
  country: 'AU',
  gst_applies: true,
  buyer: 'Ann Lee',
  email: 'ann@example.com',
  paid_on: '2026-11-27',
  total: 54.95,
  shipping: 12.9,
  shipping_name: 'AU Standard Courier',
  discount: 4.4,
  promotion_code: 'PARISH10',
  lines: [
    { title: 'Book A', quantity: 1, unit_price: 22 },
    { title: 'Book B', quantity: 3, unit_price: 8.15 },
  ],
  invoice: null,
  refund: null,
  made: null,
  xero_invoice_id: 'inv-1',
  xero_invoice_number: 'WEB-1042',
  ...over,
});

const sumCents = (values: number[]) => values.reduce((a, v) => a + Math.round(v * 100), 0);

describe('what the shop posts to Xero', () => {
  it('a card order: a line per book at the price paid, the code’s discount and the shipping, whose GST adds up to one eleventh of the total', () => {
    const doc = invoiceDocument(sale(), XERO_DEFAULTS);
    expect(doc).toMatchObject({ number: 'WEB-1042', reference: '1042', contact: { name: 'Online shop customers' }, date: '2026-11-27', dueDate: '2026-11-27' });
    expect(doc.lines.map((l) => [l.description, l.quantity, l.unitAmount, l.accountCode, l.taxType])).toEqual([
      ['Book A', 1, 22, '200', 'OUTPUT'],
      ['Book B', 3, 8.15, '200', 'OUTPUT'],
      ['Discount (code PARISH10)', 1, -4.4, '200', 'OUTPUT'],
      ['Shipping: AU Standard Courier', 1, 12.9, '200', 'OUTPUT'],
    ]);
    expect(sumCents(doc.lines.map((l) => l.quantity * l.unitAmount))).toBe(5495);
    // 54.95 / 11 = 4.995…: the tax invoice says 5.00, and so do the lines.
    expect(sumCents(doc.lines.map((l) => l.taxAmount))).toBe(500);
  });

  it('abroad: GST Free Exports and no GST; a school’s invoice: its own number, PO number, contact and due day', () => {
    const us = invoiceDocument(sale({ country: 'US', gst_applies: false, discount: 0, promotion_code: null }), XERO_DEFAULTS);
    expect(us.lines.every((l) => l.taxType === 'EXEMPTEXPORT' && l.taxAmount === 0)).toBe(true);
    const school = invoiceDocument(
      sale({
        kind: 'school',
        discount: 0,
        invoice: {
          number: 'INV-0042',
          po_number: 'PO-7781',
          organisation: "St Mary's Primary",
          email: 'office@example.com',
          issued_on: '2026-11-20',
          due_on: '2026-12-20',
          paid_on: null,
          total: 54.95,
        },
      }),
      XERO_DEFAULTS,
    );
    expect(school).toMatchObject({
      number: 'INV-0042',
      reference: 'PO PO-7781 · order 1042',
      contact: { name: "St Mary's Primary", email: 'office@example.com' },
      date: '2026-11-20',
      dueDate: '2026-12-20',
    });
  });

  it('a refund: a credit note of what was given back, refunded out of the clearing account; a sale paid into it', () => {
    const refunded = sale({ kind: 'credit', refund: { amount: 11, reason: 'One copy arrived damaged', on: '2026-11-28' } });
    const note = creditNoteDocument(refunded, XERO_DEFAULTS);
    // Xero's number for the invoice it credits, which is already paid: Xero allocates no credit to a paid invoice.
    expect(note).toMatchObject({ number: null, reference: 'WEB-1042 · order 1042', date: '2026-11-28' });
    const school = sale({ kind: 'credit', xero_invoice_number: 'INV-0042', refund: { amount: 11, reason: 'Short one copy', on: '2026-11-28' } });
    expect(creditNoteDocument(school, XERO_DEFAULTS).reference).toBe('INV-0042 · order 1042');
    expect(note.lines).toEqual([{ description: 'Refund of order 1042: One copy arrived damaged', quantity: 1, unitAmount: 11, accountCode: '200', taxType: 'OUTPUT', taxAmount: 1 }]);
    expect(refundPayment(refunded, 'cn-1', XERO_DEFAULTS)).toEqual({
      key: refunded.key,
      target: { creditNoteId: 'cn-1' },
      accountCode: 'STRIPE',
      date: '2026-11-28',
      amount: 11,
      reference: 'Stripe refund · order 1042',
    });
    expect(invoicePayment(sale(), 'inv-1', XERO_DEFAULTS)).toMatchObject({ target: { invoiceId: 'inv-1' }, accountCode: 'STRIPE', amount: 54.95, date: '2026-11-27' });
  });

  it('the doctor names each code and tax type the organisation lacks; the back office says when the connection needs the publisher', () => {
    const accounts = [
      { code: '200', name: 'Sales', type: 'REVENUE', status: 'ACTIVE' },
      { code: 'STRIPE', name: 'Stripe', type: 'EXPENSE', status: 'ACTIVE' },
      { code: '090', name: 'Business Bank Account', type: 'BANK', status: 'ACTIVE' },
    ];
    expect(settingsProblems(XERO_DEFAULTS, accounts, ['OUTPUT', 'INPUT'])).toEqual([
      'no active account with the code 404 (XERO_FEES_ACCOUNT)',
      'no bank account with the code STRIPE for the Stripe balance (XERO_CLEARING_ACCOUNT)',
      'no tax type EXEMPTEXPORT (XERO_EXPORT_TAX_TYPE)',
    ]);
    const whole = [accounts[0]!, accounts[2]!, { code: 'STRIPE', name: 'Stripe', type: 'BANK', status: 'ACTIVE' }, { code: '404', name: 'Bank Fees', type: 'EXPENSE', status: 'ACTIVE' }];
    expect(settingsProblems(XERO_DEFAULTS, whole, ['OUTPUT', 'EXEMPTEXPORT', 'INPUT'])).toEqual([]);
    expect(settingsProblems(XERO_DEFAULTS, whole.slice(0, 1).concat(whole.slice(2)), ['OUTPUT', 'EXEMPTEXPORT', 'INPUT'])).toEqual([
      "no bank account with the code 090 for Stripe's payouts (XERO_BANK_ACCOUNT)",
    ]);

    const connection = { tenant_name: 'Publisher', connected_at: null, connected_by: null, start_on: '2026-11-01', refresh_expires_at: '2027-01-20T00:00:00Z', renewal_reason: null };
    const now = Date.parse('2026-11-28T00:00:00Z');
    expect(connectionProblem(connection, now)).toBeNull();
    expect(connectionProblem({ ...connection, refresh_expires_at: '2026-12-01T00:00:00Z' }, now)).toMatch(/lapses within a week/);
    expect(connectionProblem({ ...connection, renewal_reason: 'Xero refused the refresh token (invalid_grant).' }, now)).toMatch(/^The connection to Xero needs renewing: press Connect to Xero\./);
  });

  it('the last sync: what it posted when it ended, that it is posting while it runs, and that it died once past its lease', () => {
    const now = Date.parse('2026-11-28T01:00:00Z');
    const run = { started_at: '2026-11-28T00:59:00Z', finished_at: null, trigger: 'staff', posted: 0, failed: 0, calls: 1, stopped: null };
    expect(syncRunning(run, now)).toBe(true);
    expect(lastSyncText(run, '12:59 pm', now)).toBe('A sync is posting now (started 12:59 pm, Sync now): what it posted shows here when it ends.');
    const dead = { ...run, started_at: '2026-11-28T00:54:00Z', trigger: 'schedule' };
    expect(syncRunning(dead, now)).toBe(false);
    expect(lastSyncText(dead, '12:54 pm', now)).toBe('The sync started 12:54 pm (on schedule) did not finish: the next sync posts what it had claimed.');
    const ended = { ...run, finished_at: '2026-11-28T00:59:20Z', posted: 5, failed: 1, stopped: 'Xero is limiting calls.' };
    expect(syncRunning(ended, now)).toBe(false);
    expect(lastSyncText(ended, '12:59 pm', now)).toBe('Last sync 12:59 pm (Sync now): 5 posted, 1 refused. Xero is limiting calls.');
    expect(syncRunning(null, now)).toBe(false);
  });

  it('what waits: the next sync’s documents, those Xero refused before among them', () => {
    expect(waitingText({ waiting: 0, refused: 0 })).toBe('Nothing waits to be posted.');
    expect(waitingText({ waiting: 5, refused: 0 })).toBe('5 waiting to be posted.');
    expect(waitingText({ waiting: 5, refused: 2 })).toBe('5 waiting to be posted (2 of them refused by Xero before: see below).');
  });
});
