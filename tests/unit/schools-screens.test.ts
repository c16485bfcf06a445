/**
 * The rules the schools' screens apply before anything is sent: the quote form's checks (the contract's schema
 * through the form's resolver) and what it sends, and the invoice editor's draft (as the contract's schema takes it)
 * and its errors by field. The running totals are the database's (tests/integration/invoice-totals.test.ts).
 */
import type { FieldValues, Resolver } from 'react-hook-form';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { centsOf, type DraftForm, draftOf, draftResolver, formOf } from '@/features/on-account/draft-form';
import { dueText } from '@/features/on-account/InvoicesPanel';
import { copiesOf, type QuoteBook, type QuoteFields, quoteResolver, readQuote } from '@/features/on-account/quote-form';
import { invoiceDraftSchema, quoteRequestDataSchema, type InvoiceDetail } from '@/features/on-account/contract';

const BOOK: QuoteBook = {
  id: 'book-10-reasons',
  title: '10 Reasons',
  price: 22,
  quantityPrices: [
    { minQuantity: 10, price: 20 },
    { minQuantity: 25, price: 18 },
  ],
};
const OTHER: QuoteBook = { id: 'book-two', title: 'Book Two', price: 15, quantityPrices: [] };

const filled: Record<string, string> = {
  organisation: 'St Mary MacKillop Primary',
  contactName: 'Bernadette Nguyen',
  email: 'office@stmarys.example.edu.au',
  phone: '02 9876 5432',
  line1: '12 Mary St',
  line2: '',
  city: 'Parramatta',
  state: 'NSW',
  postcode: '2150',
  'copies-book-10-reasons': '40',
  'copies-book-two': '0',
  neededBy: '2026-12-20',
  poNumber: 'PO-118',
  note: '',
};
/** The form's fields from the flat list above (copies by "copies-<book>"). */
function values(changes: Record<string, string> = {}): QuoteFields {
  const v = (name: string) => ({ ...filled, ...changes })[name] ?? '';
  return {
    organisation: v('organisation'),
    contactName: v('contactName'),
    email: v('email'),
    phone: v('phone'),
    address: { line1: v('line1'), line2: v('line2'), city: v('city'), state: v('state'), postcode: v('postcode') },
    copies: { 'book-10-reasons': v('copies-book-10-reasons'), 'book-two': v('copies-book-two') },
    neededBy: v('neededBy'),
    poNumber: v('poNumber'),
    note: v('note'),
  };
}
const blank = (): QuoteFields => ({
  organisation: '',
  contactName: '',
  email: '',
  phone: '',
  address: { line1: '', line2: '', city: '', state: '', postcode: '' },
  copies: {},
  neededBy: '',
  poNumber: '',
  note: '',
});

/** A resolver's errors by field: the last part of each path ("line1", the books' one error "copies"), or the whole path. */
async function errorsBy<T extends FieldValues>(resolver: Resolver<T, unknown, unknown>, form: T, fullPaths = false): Promise<Record<string, string>> {
  const { errors } = await resolver(form, undefined, { fields: {}, shouldUseNativeValidation: false });
  const found: Record<string, string> = {};
  const walk = (node: unknown, path: string[]) => {
    if (!node || typeof node !== 'object') return;
    const { message, type } = node as { message?: unknown; type?: unknown };
    if (typeof message === 'string' && typeof type === 'string') {
      found[fullPaths ? path.join('.') : path[0] === 'copies' ? 'copies' : path[path.length - 1]!] = message;
      return;
    }
    for (const [key, value] of Object.entries(node)) if (key !== 'ref') walk(value, [...path, key]);
  };
  walk(errors, []);
  return found;
}
const quoteErrors = (form: QuoteFields, books: readonly QuoteBook[]) => errorsBy(quoteResolver(books) as Resolver<QuoteFields, unknown, unknown>, form);
const draftErrors = (form: DraftForm) => errorsBy(draftResolver() as Resolver<DraftForm, unknown, unknown>, form, true);

// The days below are written for 26 November 2026 in Sydney; the contract's own check of a needed-by day reads the
// clock, so the clock reads that day too.
beforeAll(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-11-26T01:00:00Z'));
});
afterAll(() => {
  vi.useRealTimers();
});

describe('the quote form', () => {
  it('sends only the books with copies, no empty optional field, to an Australian address; the contract takes it', async () => {
    expect(await quoteErrors(values(), [BOOK, OTHER])).toEqual({});
    const data = readQuote(values(), [BOOK, OTHER]);
    expect(data.lines).toEqual([{ productId: 'book-10-reasons', quantity: 40 }]);
    expect(data.address).toEqual({ line1: '12 Mary St', line2: undefined, city: 'Parramatta', state: 'NSW', postcode: '2150', country: 'AU' });
    expect(data.note).toBeUndefined();
    expect(quoteRequestDataSchema.safeParse(data).success).toBe(true);
  });

  it('asks for at least one book with copies, and whole numbers', async () => {
    expect((await quoteErrors(values({ 'copies-book-10-reasons': '0' }), [BOOK, OTHER])).copies).toBe('Please enter how many copies you need of at least one book.');
    expect((await quoteErrors(values({ 'copies-book-10-reasons': '0' }), [BOOK])).copies).toBe('Please enter how many copies you need.');
    expect((await quoteErrors(values({ 'copies-book-10-reasons': '2.5' }), [BOOK])).copies).toMatch(/whole number/);
    expect((await quoteErrors(values({ 'copies-book-10-reasons': '5001' }), [BOOK])).copies).toMatch(/from 0 to 5,000/);
    expect(copiesOf('')).toBe(0);
    expect(copiesOf('-3')).toBeNaN();
  });

  it("puts a count that is not one on its own book's copies, not on every book's", async () => {
    const form = values({ 'copies-book-two': '-3' });
    const errors = await errorsBy(quoteResolver([BOOK, OTHER]) as Resolver<QuoteFields, unknown, unknown>, form, true);
    expect(errors).toEqual({ 'copies.book-two': 'Please enter a whole number of copies, from 0 to 5,000.' });
    const none = await errorsBy(quoteResolver([BOOK, OTHER]) as Resolver<QuoteFields, unknown, unknown>, values({ 'copies-book-10-reasons': '0' }), true);
    expect(none).toEqual({ 'copies.book-10-reasons': 'Please enter how many copies you need of at least one book.' });
  });

  it('is refused by the contract where the form refuses it: a day past, letters in the phone, an address outside Australia', () => {
    const data = readQuote(values({ neededBy: '' }), [BOOK]);
    expect(quoteRequestDataSchema.safeParse(data).success).toBe(true);
    expect(quoteRequestDataSchema.safeParse({ ...data, neededBy: '2020-01-01' }).error?.issues[0]?.message).toMatch(/passed/);
    expect(quoteRequestDataSchema.safeParse({ ...data, phone: 'call me 0298765432' }).error?.issues[0]?.message).toMatch(/digits only/);
    expect(quoteRequestDataSchema.safeParse({ ...data, address: { ...data.address, country: 'NZ' } }).error?.issues[0]?.message).toBe('Quotes are for delivery addresses in Australia.');
  });

  it('refuses a needed-by day already past, but takes today', async () => {
    expect((await quoteErrors(values({ neededBy: '2026-11-25' }), [BOOK])).neededBy).toMatch(/passed/);
    expect((await quoteErrors(values({ neededBy: '2026-11-26' }), [BOOK])).neededBy).toBeUndefined();
  });

  it('names each missing field in words, and checks the email and the postcode', async () => {
    const errors = await quoteErrors(blank(), [BOOK]);
    expect(Object.keys(errors).sort()).toEqual(['city', 'contactName', 'copies', 'email', 'line1', 'organisation', 'phone', 'postcode', 'state'].sort());
    expect((await quoteErrors(values({ email: 'office@stmarys' }), [BOOK])).email).toBe('Please enter a valid email address.');
    expect((await quoteErrors(values({ postcode: '215' }), [BOOK])).postcode).toBe('An Australian postcode has four digits.');
  });
});

const DETAIL: InvoiceDetail = {
  id: '11111111-1111-4111-8111-111111111111',
  number: 7,
  created_at: '2026-11-26T00:00:00Z',
  status: 'draft',
  overdue: false,
  organisation: 'Holy Family Parish',
  contact_name: 'Fr John',
  email: 'parish@example.org.au',
  po_number: 'HF-12',
  total: 735,
  gst: 66.82,
  credited: 0,
  terms_days: 14,
  sent_at: null,
  due_on: null,
  paid_at: null,
  ship_before_payment: false,
  order_id: null,
  order_status: null,
  quote_id: null,
  phone: null,
  address: { line1: '1 Church St', city: 'Kellyville', state: 'NSW', postcode: '2155', country: 'AU' },
  lines: [{ product_id: 'book-10-reasons', title: '10 Reasons', quantity: 40, list_unit_price: 18, unit_price: 18, price_reason: null, amount: 720 }],
  subtotal: 720,
  shipping_name: 'AU Standard Courier',
  shipping_amount: 15,
  shipping_kind: 'rate_card',
  shipping_reason: null,
  gst_applies: true,
  note: null,
  hosted_url: null,
  provider_invoice_id: null,
  reminded_at: null,
  voided_at: null,
  created_by: 'publisher@example.com',
  credit_notes: [],
};

describe('the invoice editor', () => {
  it('shows a saved draft as it was saved, and saves it back as the contract takes it', () => {
    const form = formOf(DETAIL);
    expect(form).toMatchObject({ shipping: { kind: 'rate_card', rateId: 'au-standard' }, termsDays: 14, poNumber: 'HF-12' });
    const draft = invoiceDraftSchema.parse(draftOf(form));
    expect(draft.lines).toEqual([{ productId: 'book-10-reasons', quantity: 40, priceReason: undefined }]);
    expect(draft.shipping).toEqual({ kind: 'rate_card', rateId: 'au-standard' });
    expect(draft.phone).toBeUndefined();
  });

  it('asks for a reason for a changed price, and for a typed shipping price, under their fields', async () => {
    const form = formOf(DETAIL);
    form.lines[0] = { ...form.lines[0]!, priceChanged: true, unitPrice: '16.50', priceReason: '' };
    expect(await draftErrors(form)).toEqual({ 'lines.0.priceReason': 'Give a reason for the changed price.' });
    form.lines[0]!.priceReason = 'Parish discount agreed by phone';
    expect(await draftErrors(form)).toEqual({});
    expect(draftOf(form).lines[0]).toMatchObject({ unitPriceCents: 1650, priceReason: 'Parish discount agreed by phone' });
    const typed: DraftForm = { ...form, shipping: { ...form.shipping, kind: 'typed', name: 'Courier to the school', amount: 'ten', reason: '' } };
    expect(Object.keys(await draftErrors(typed)).sort()).toEqual(['shipping.amount', 'shipping.reason']);
  });

  it('says a quantity that is not a whole number of copies is one', async () => {
    const form = formOf(DETAIL);
    form.lines[0]!.quantity = '4.5';
    expect((await draftErrors(form))['lines.0.quantity']).toBe('Please enter a whole number of copies.');
  });

  it('reads dollars as typed', () => {
    expect(centsOf('18')).toBe(1800);
    expect(centsOf('$18.5')).toBe(1850);
    expect(centsOf('18.555')).toBeNaN();
    expect(centsOf('')).toBeNaN();
  });
});

describe('the invoice editor and the contract', () => {
  it('finds a draft wrong exactly when the contract’s schema does', async () => {
    const base = formOf(DETAIL);
    const variants = [
      base,
      { ...base, organisation: ' ' },
      { ...base, email: 'parish@example' },
      { ...base, poNumber: 'x'.repeat(61) },
      { ...base, address: { ...base.address, postcode: '' } },
      { ...base, lines: [] },
      { ...base, lines: [{ ...base.lines[0]!, quantity: '0' }] },
      { ...base, lines: [{ ...base.lines[0]!, quantity: '5001' }] },
      { ...base, lines: [{ ...base.lines[0]!, priceChanged: true, unitPrice: '12', priceReason: '' }] },
      { ...base, lines: [{ ...base.lines[0]!, priceChanged: true, unitPrice: '12', priceReason: 'Agreed' }] },
      { ...base, shipping: { ...base.shipping, kind: 'typed' as const, name: 'Courier', amount: '20', reason: 'Two boxes' } },
      { ...base, shipping: { ...base.shipping, kind: 'typed' as const, name: 'Courier', amount: '20', reason: '' } },
      { ...base, note: 'n'.repeat(2001) },
    ];
    for (const form of variants) {
      const schema = invoiceDraftSchema.safeParse(draftOf(form));
      expect(Object.keys(await draftErrors(form)).length === 0, JSON.stringify(schema.success ? 'valid' : schema.error.issues)).toBe(schema.success);
    }
  });
});

describe('the invoices list', () => {
  it('says when an invoice is due, and how late an overdue one is', () => {
    expect(dueText({ due_on: null, overdue: false, status: 'draft' })).toBe('Not sent');
    expect(dueText({ due_on: '2026-12-10', overdue: false, status: 'sent' })).toBe('Due 10/12/26');
    expect(dueText({ due_on: '2026-11-20', overdue: true, status: 'sent' })).toBe('Was due 20/11/26, 6 days late');
  });
});
