/**
 * Buying on account (schools and parishes): what the quote form, the back office's quote and invoice panels and
 * the functions behind them agree on. A quote request comes in through POST /api/send-notification (type
 * 'quote'); the publisher turns it into a draft invoice, edits it, and sends it through POST /api/admin-invoice
 * (staff only), which also voids, reminds, credits and marks an invoice to ship before payment. The lists are read
 * with the staff member's own token: `admin_list_quotes`, `admin_list_invoices` (keyset pages, `{ rows, next }`)
 * and `admin_get_invoice`.
 *
 * A sent invoice is also an order (kind 'invoice'), so the bench, the packing slip, Sales and the CSV show it as
 * they show any order: it is to pack once paid, or at once when it ships before payment.
 */
import { z } from '../../lib/zod';
import { ALLOWED_COUNTRIES, LIMITS } from '../../config/constants';
import { shopDay } from '../../lib/format';
import { emailAddress, multiLine, singleLine } from '../../lib/schemas';
import { INVOICE_RULES, INVOICE_STATUSES, isPhoneNumber, QUOTE_STATUSES } from './rules';

// ---------------------------------------------------------------------------------------------------------------
// Shared field schemas

/** An amount the database answers (numeric, sent as a number or a string). */
const money = z.coerce.number();

const line = (what: string, max: number) =>
  singleLine({ error: `Please enter ${what}.` })
    .min(1, `Please enter ${what}.`)
    .max(max, `The ${what.replace(/^(a|an|the|your) /, '')} can be at most ${max} characters.`);

/** A field that may be left blank (then absent); `text` is `multiLine()` for a note. */
const optionalLine = (what: string, max: number, tooLong = `The ${what} can be at most ${max} characters.`, text = singleLine()) =>
  text
    .max(max, tooLong)
    .optional()
    .transform((v) => (v ? v : undefined));

const emailWith = (missing: string) => emailAddress({ missing, tooLong: `The email address can be at most ${LIMITS.emailMaxLength} characters.`, invalid: 'Please enter a valid email address.' });
const email = emailWith('Please enter an email address.');

const poNumber = optionalLine('PO number', INVOICE_RULES.poNumberMaxLength);

/** Where the books go: the school's or parish's delivery address. */
const invoiceAddressSchema = z.object(
  {
    line1: line('the street address', LIMITS.addressFieldMaxLength),
    line2: optionalLine('second address line', LIMITS.addressFieldMaxLength),
    city: line('the suburb or city', 100),
    state: line('the state', 100),
    postcode: line('the postcode', 20),
    country: z.enum(ALLOWED_COUNTRIES, { error: `The country must be one of ${ALLOWED_COUNTRIES.join(', ')}.` }),
  },
  { error: 'address must be an object with line1, city, state, postcode and country.' },
);

const productId = z.string({ error: 'Please say which book.' }).trim().min(1, 'Please say which book.').max(100, 'That is not a book of this shop.');
// The editor's words: its Copies field is where a wrong quantity is typed.
const quantity = z
  .number({ error: 'Please enter a whole number of copies.' })
  .int('Please enter a whole number of copies.')
  .min(1, 'The quantity must be at least 1.')
  .max(INVOICE_RULES.maxLineQuantity, `At most ${INVOICE_RULES.maxLineQuantity} copies of one book.`);
const cents = (what: string) =>
  z
    // The editor's words: it takes dollars and cents, and sends cents.
    .number({ error: `${what} must be an amount in dollars and cents.` })
    .int(`${what} must be a whole number of cents.`)
    .min(0, `${what} cannot be negative.`)
    .max(INVOICE_RULES.maxAmountCents, `${what} is more than any invoice.`);
const note = optionalLine('note', INVOICE_RULES.noteMaxLength, undefined, multiLine());
const reason = (what: string) => line(`a reason for ${what}`, INVOICE_RULES.reasonMaxLength);

/** 'YYYY-MM-DD', a real date. */
const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Please enter a date, or leave it blank.')
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), 'Please enter a date, or leave it blank.');

// ---------------------------------------------------------------------------------------------------------------
// The quote request: POST /api/send-notification { type: 'quote', data, turnstileToken? } (its envelope in forms/notification.ts)

// The quote form's words (the form is built on this schema): a school's office reads them.
const quoteCopies = `Please enter a whole number of copies, from 0 to ${INVOICE_RULES.maxLineQuantity.toLocaleString('en-AU')}.`;
/** The quote form's message for no copies at all, which it words for a page of one book as "how many copies you need". */
export const QUOTE_NO_COPIES = 'Please enter how many copies you need of at least one book.';

export const quoteRequestDataSchema = z.object(
  {
    organisation: line("your school, parish or group's name", INVOICE_RULES.organisationMaxLength),
    contactName: line('your name', LIMITS.nameMaxLength),
    email: emailWith('Please enter your email address.'),
    // The server refuses what the quote form refuses: digits only, an address in Australia, no day already past.
    phone: line('a phone number', INVOICE_RULES.phoneMaxLength).refine(isPhoneNumber, 'Please enter a phone number, digits only (spaces, +, - and brackets are fine).'),
    address: invoiceAddressSchema.extend({
      city: line('the suburb or town', 100),
      state: singleLine({ error: 'Please choose the state or territory.' }).min(1, 'Please choose the state or territory.').max(100, 'Please choose the state or territory.'),
      postcode: line('the postcode', 20).regex(/^\d{4}$/, 'An Australian postcode has four digits.'),
      country: z.literal('AU', { error: 'Quotes are for delivery addresses in Australia.' }),
    }),
    lines: z
      .array(z.object({ productId, quantity: z.number({ error: quoteCopies }).int(quoteCopies).min(1, quoteCopies).max(INVOICE_RULES.maxLineQuantity, quoteCopies) }), {
        error: 'lines must be a list of books and quantities.',
      })
      .min(1, QUOTE_NO_COPIES)
      .max(INVOICE_RULES.maxLines, `At most ${INVOICE_RULES.maxLines} books on one quote.`)
      .refine((lines) => new Set(lines.map((l) => l.productId)).size === lines.length, 'Each book once, please: give its total quantity.'),
    neededBy: isoDate.refine((day) => day >= shopDay(), 'That date has passed. Please choose today or a later day.').optional(),
    poNumber: optionalLine('PO number', INVOICE_RULES.poNumberMaxLength, `A purchase order number can be at most ${INVOICE_RULES.poNumberMaxLength} characters.`),
    note,
  },
  { error: 'must be an object with organisation, contactName, email, phone, address and lines.' },
);
export type QuoteRequestData = z.infer<typeof quoteRequestDataSchema>;

/** What the quote form is told (besides { ok: true }): a 404 for a book the shop does not have. */
export const QUOTE_MESSAGES = {
  unknownBook: 'We could not find one of those books in the shop. Please choose again.',
  notSaved: 'Your request could not be saved. Please try again later.',
} as const;

// ---------------------------------------------------------------------------------------------------------------
// The draft: what the publisher types or the quote fills in

/** What prices a line: the book, its copies, and a price per copy other than the quantity price, in cents. */
const pricedLineFields = { productId, quantity, unitPriceCents: cents('The price per copy').optional() };

/** One line: a book at its quantity price (as the cart prices it), unless the publisher changes the price and says why. */
const invoiceLineInputSchema = z
  .object({
    ...pricedLineFields,
    /** Needed with `unitPriceCents`. */
    priceReason: optionalLine('reason for the price', INVOICE_RULES.reasonMaxLength),
  })
  .refine((l) => l.unitPriceCents === undefined || l.priceReason !== undefined, { message: 'Give a reason for the changed price.', path: ['priceReason'] });

/** An invoice's books: one at least, at most the rule's number. */
const invoiceLines = <T extends z.ZodType>(line: T) =>
  z
    .array(line, { error: 'lines must be a list of books and quantities.' })
    .min(1, 'An invoice needs at least one book.')
    .max(INVOICE_RULES.maxLines, `At most ${INVOICE_RULES.maxLines} books on one invoice.`);

const rateCardShipping = z.object({
  kind: z.literal('rate_card'),
  rateId: z.string({ error: 'Choose a rate of the rate card.' }).trim().min(1, 'Choose a rate of the rate card.').max(60),
});

/** The rate card's option for the address (au-standard, au-express at home; the international services abroad), or a price typed with a reason. */
const invoiceShippingInputSchema = z.discriminatedUnion(
  'kind',
  [rateCardShipping, z.object({ kind: z.literal('typed'), name: line('the delivery method', 100), amountCents: cents('The shipping'), reason: reason('the shipping price') })],
  { error: "shipping must be { kind: 'rate_card', rateId } or { kind: 'typed', name, amountCents, reason }." },
);

export const invoiceDraftSchema = z.object(
  {
    organisation: line('the school or parish', INVOICE_RULES.organisationMaxLength),
    contactName: line('the contact’s name', LIMITS.nameMaxLength),
    email,
    phone: optionalLine('phone number', INVOICE_RULES.phoneMaxLength),
    address: invoiceAddressSchema,
    poNumber,
    lines: invoiceLines(invoiceLineInputSchema).refine((lines) => new Set(lines.map((l) => l.productId)).size === lines.length, 'Each book once: give its total quantity on one line.'),
    shipping: invoiceShippingInputSchema,
    termsDays: z.union([z.literal(14), z.literal(30)], { error: 'Payment terms are 14 or 30 days.' }),
    note,
    /** Pack and send the books before the invoice is paid (a school the publisher knows). */
    shipBeforePayment: z.boolean({ error: 'shipBeforePayment must be true or false.' }).default(false),
  },
  { error: 'draft must be an object with organisation, contactName, email, address, lines, shipping and termsDays.' },
);
export type InvoiceDraft = z.infer<typeof invoiceDraftSchema>;
export type InvoiceDraftInput = z.input<typeof invoiceDraftSchema>;

/**
 * What the editor's live preview sends to be priced: the books, the shipping and the country, before the rest of
 * the draft need be filled in. The database prices it as it prices the saved draft (`invoice_totals`).
 */
const invoicePriceDraftSchema = z.object(
  {
    address: z.object({ country: invoiceAddressSchema.shape.country }),
    lines: invoiceLines(z.object(pricedLineFields)),
    shipping: z.discriminatedUnion('kind', [rateCardShipping, z.object({ kind: z.literal('typed'), name: z.string().max(100).optional(), amountCents: cents('The shipping') })], {
      error: "shipping must be { kind: 'rate_card', rateId } or { kind: 'typed', amountCents }.",
    }),
  },
  { error: 'draft must be an object with address, lines and shipping.' },
);
export type InvoicePriceDraft = z.infer<typeof invoicePriceDraftSchema>;

/** invoice_totals' answer: each line at its price, the subtotal, the shipping (free from the threshold), the total and its GST. */
export const invoiceTotalsSchema = z.object({
  lines: z.array(z.object({ product_id: z.string(), title: z.string(), quantity: z.number(), list_unit_price: money, unit_price: money, amount: money })),
  subtotal: money,
  shipping: z.object({ kind: z.enum(['rate_card', 'typed']), name: z.string().nullable(), amount: money, reason: z.string().nullable() }),
  total: money,
  gst: money,
  gst_applies: z.boolean(),
});
export type InvoiceTotals = z.infer<typeof invoiceTotalsSchema>;

// ---------------------------------------------------------------------------------------------------------------
// POST /api/admin-invoice (staff only): one action per call

const invoiceId = z.uuid('invoiceId must be an invoice id');
const quoteId = z.uuid('quoteId must be a quote id');

export const invoiceActionSchema = z.discriminatedUnion(
  'action',
  [
    /** A draft from nothing. */
    z.object({ action: z.literal('create'), draft: invoiceDraftSchema }),
    /** A draft from a quote request, its details and books copied (the standard rate of the rate card, 30 days); the quote becomes invoiced. */
    z.object({ action: z.literal('create_from_quote'), quoteId }),
    /** Replaces a draft's details and lines. Only a draft can be changed. */
    z.object({ action: z.literal('update'), invoiceId, draft: invoiceDraftSchema }),
    /** Holds the copies, makes the order, and has the payment provider email the invoice. */
    z.object({ action: z.literal('send'), invoiceId }),
    /** A sent (unpaid) invoice: voided at the provider, copies back, order cancelled. */
    z.object({ action: z.literal('void'), invoiceId }),
    /** A sent invoice that will not be paid: copies back (unless already shipped), order cancelled. */
    z.object({ action: z.literal('mark_uncollectible'), invoiceId }),
    /** Pack it now rather than when paid (draft or sent), or take that back while nothing has shipped. */
    z.object({ action: z.literal('ship_before_payment'), invoiceId, value: z.boolean({ error: 'value must be true or false.' }) }),
    /** Emails the open invoice again. */
    z.object({ action: z.literal('remind'), invoiceId }),
    /** A credit note on a paid invoice: refunds `amountCents` with the reason. */
    z.object({
      action: z.literal('credit'),
      invoiceId,
      amountCents: cents('The credit').min(1, 'The amount must be more than zero.'),
      reason: reason('the credit'),
    }),
    /** The publisher will not invoice this quote. */
    z.object({ action: z.literal('decline_quote'), quoteId }),
    /** The draft as typed, priced by the database and not saved: the editor's running totals. */
    z.object({ action: z.literal('price'), draft: invoicePriceDraftSchema }),
  ],
  {
    error: "action must be one of 'create', 'create_from_quote', 'update', 'send', 'void', 'mark_uncollectible', 'ship_before_payment', 'remind', 'credit', 'decline_quote', 'price'.",
  },
);
export type InvoiceAction = z.infer<typeof invoiceActionSchema>;
export type InvoiceActionInput = z.input<typeof invoiceActionSchema>;

/** 200: what was done, in one sentence, and the invoice as it is now (absent for decline_quote); for price, the totals. 4xx/5xx: { error }. */
export const invoiceActionAnswerSchema = z.object({
  message: z.string(),
  invoiceId: z.uuid().optional(),
  totals: invoiceTotalsSchema.optional(),
});

// ---------------------------------------------------------------------------------------------------------------
// What the database answers (read with the staff member's token)

const time = z.string();

/** An address as stored: every field may be missing, and an empty second line is null. */
const storedAddressSchema = z.looseObject({ line1: z.string(), line2: z.string().nullable(), city: z.string(), state: z.string(), postcode: z.string(), country: z.string() }).partial();

/** One row of admin_list_quotes(p_view, p_cursor, p_limit) → { rows, next }: newest first. */
export const quoteRowSchema = z.object({
  id: z.uuid(),
  created_at: time,
  status: z.enum(QUOTE_STATUSES),
  organisation: z.string(),
  contact_name: z.string(),
  email: z.string(),
  phone: z.string(),
  address: storedAddressSchema,
  lines: z.array(z.object({ product_id: z.string(), title: z.string(), quantity: z.number() })),
  needed_by: z.string().nullable(),
  po_number: z.string().nullable(),
  note: z.string().nullable(),
  /** The invoice made from it, once invoiced. */
  invoice_id: z.uuid().nullable(),
});
export type QuoteRow = z.infer<typeof quoteRowSchema>;

/** One row of admin_list_invoices(p_view, p_search, p_cursor, p_limit) → { rows, next }: newest first; overdue by due date. */
export const invoiceRowSchema = z.object({
  id: z.uuid(),
  number: z.number(),
  created_at: time,
  status: z.enum(INVOICE_STATUSES),
  /** Sent, unpaid and past its due date (computed, never stored). */
  overdue: z.boolean(),
  organisation: z.string(),
  contact_name: z.string(),
  email: z.string(),
  po_number: z.string().nullable(),
  total: money,
  gst: money,
  /** What credit notes have given back so far. */
  credited: money,
  terms_days: z.number(),
  sent_at: time.nullable(),
  /** The last day to pay (YYYY-MM-DD), once sent. */
  due_on: z.string().nullable(),
  paid_at: time.nullable(),
  ship_before_payment: z.boolean(),
  /** The order a sent invoice made (the bench, the packing slip). */
  order_id: z.uuid().nullable(),
  /** The order's status: processing (to pack), shipped, completed, cancelled. */
  order_status: z.string().nullable(),
  quote_id: z.uuid().nullable(),
});
export type InvoiceRow = z.infer<typeof invoiceRowSchema>;

const invoiceLineSchema = z.object({
  product_id: z.string(),
  title: z.string(),
  quantity: z.number(),
  /** The quantity price the cart would charge, at the time the draft was saved. */
  list_unit_price: money,
  unit_price: money,
  /** Why unit_price differs from list_unit_price; null when it does not. */
  price_reason: z.string().nullable(),
  amount: money,
});

const creditNoteSchema = z.object({
  id: z.uuid(),
  amount: money,
  reason: z.string(),
  status: z.enum(['pending', 'succeeded', 'failed']),
  provider_credit_note_id: z.string().nullable(),
  created_at: time,
  actor: z.string(),
});

/** admin_get_invoice(p_invoice_id): the row and everything the detail view and the draft form need. */
export const invoiceDetailSchema = invoiceRowSchema.extend({
  phone: z.string().nullable(),
  address: storedAddressSchema,
  lines: z.array(invoiceLineSchema),
  subtotal: money,
  shipping_name: z.string(),
  shipping_amount: money,
  /** 'rate_card:<rateId>' or 'typed'. */
  shipping_kind: z.string(),
  shipping_reason: z.string().nullable(),
  gst_applies: z.boolean(),
  note: z.string().nullable(),
  /** The payment provider's invoice page (pay online, PDF), once sent. */
  hosted_url: z.string().nullable(),
  provider_invoice_id: z.string().nullable(),
  reminded_at: time.nullable(),
  voided_at: time.nullable(),
  created_by: z.string(),
  credit_notes: z.array(creditNoteSchema),
});
export type InvoiceDetail = z.infer<typeof invoiceDetailSchema>;

export const pageSchema = <T extends z.ZodType>(row: T) => z.object({ rows: z.array(row), next: z.string().nullable() });
