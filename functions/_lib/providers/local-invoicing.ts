/**
 * LOCAL STAND-IN for Stripe Invoicing, for `npm start` and the tests: the invoices are the shop's own rows (found
 * by their `in_local_…` id), the "email to the school" goes to the email stand-in (the local outbox) with the link to
 * the TEST invoice page (functions/test-invoice.ts), where Pay invoice stands in for the school's payment. It never
 * runs in a deploy: selectInvoiceProvider refuses it without the local server's signal, and the page answers 404.
 */
import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { z } from 'zod';
import { SITE } from '../../../src/config/site';
import { formatLongDate, formatPrice } from '../../../src/lib/format';
import { toCents } from '../../../src/lib/money';
import { ProviderError, WebhookSignatureError } from './errors';
import type { EmailProvider } from './email';
import type { InvoiceProvider, ProviderInvoice, ProviderInvoiceStatus } from './invoicing';

export const LOCAL_INVOICE_PREFIX = 'in_local_';
const TEST_INVOICE_PATH = '/api/test-invoice';

export const testInvoiceUrl = (siteOrigin: string, providerInvoiceId: string) => {
  const url = new URL(TEST_INVOICE_PATH, siteOrigin);
  url.searchParams.set('invoice', providerInvoiceId);
  return url.href;
};

const STATUS: Record<string, ProviderInvoiceStatus> = { draft: 'draft', sent: 'open', paid: 'paid', void: 'void', uncollectible: 'uncollectible' };

const rowSchema = z.object({
  id: z.uuid(),
  number: z.number(),
  status: z.string(),
  email: z.string(),
  organisation: z.string(),
  po_number: z.string().nullable(),
  total: z.coerce.number(),
  due_on: z.string().nullable(),
  provider_invoice_id: z.string().nullable(),
  voided_at: z.string().nullable(),
  emailed_at: z.string().nullable(),
});

/** The day it is in Sydney, as YYYY-MM-DD: an invoice falls due by the publisher's calendar. */
const sydneyDay = (at: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Australia/Sydney' }).format(at);

/** The invoice email's opening lines; a reminder past the due date says it is overdue, and since when. */
export function invoiceEmailLines(row: Pick<z.infer<typeof rowSchema>, 'number' | 'organisation' | 'po_number' | 'total' | 'due_on' | 'emailed_at'>, now: Date): string[] {
  const number = `INV-${String(row.number).padStart(4, '0')}`;
  const overdue = row.emailed_at !== null && row.due_on !== null && row.due_on < sydneyDay(now);
  return [
    `Invoice ${number} for ${row.organisation}.`,
    ...(row.po_number ? [`PO number: ${row.po_number}`] : []),
    ...(overdue && row.due_on ? [`This invoice is overdue: it was due on ${formatLongDate(row.due_on)}.`] : []),
    `Amount due: ${formatPrice(row.total)} AUD${row.due_on && !overdue ? `, by ${formatLongDate(row.due_on)}` : ''}.`,
  ];
}

export function createLocalInvoicing(db: () => SupabaseClient, email: EmailProvider, siteOrigin: string): InvoiceProvider {
  /** The "provider's" invoice: the shop's own row, as Stripe would answer it. */
  async function find(id: string) {
    const { data, error } = await db()
      .from('invoices')
      .select('id, number, status, email, organisation, po_number, total, due_on, provider_invoice_id, voided_at, emailed_at')
      .eq('provider_invoice_id', id)
      .maybeSingle();
    if (error) throw error;
    if (!data) throw new Error(`No test invoice ${id}`);
    return rowSchema.parse(data);
  }
  const answer = (id: string, row: z.infer<typeof rowSchema>, status: ProviderInvoiceStatus = STATUS[row.status] ?? 'open'): ProviderInvoice => ({
    id,
    status,
    totalCents: toCents(row.total),
    currency: 'aud',
    hostedUrl: status === 'draft' ? null : testInvoiceUrl(siteOrigin, id),
    shopInvoiceId: row.id,
  });

  return {
    name: 'local-test',
    async createInvoice(input) {
      return {
        id: `${LOCAL_INVOICE_PREFIX}${input.shopInvoiceId}`,
        status: 'draft',
        totalCents: input.totalCents,
        currency: 'aud',
        hostedUrl: null,
        shopInvoiceId: input.shopInvoiceId,
      };
    },
    async sendInvoice(id) {
      const row = await find(id);
      const link = testInvoiceUrl(siteOrigin, id);
      const number = `INV-${String(row.number).padStart(4, '0')}`;
      // As Stripe's email: who it is from, what is due and by when, and the page to pay it.
      await email.send({
        to: row.email,
        subject: `${row.emailed_at ? 'Reminder: ' : ''}Invoice ${number} from ${SITE.publisher}`,
        text: [...invoiceEmailLines(row, new Date()), '', `View and pay the invoice: ${link}`, '', '(TEST invoice from the local shop: no real money moves.)'].join('\n'),
        idempotencyKey: `test-invoice-${id}-${Date.now()}`,
      });
      return answer(id, row, 'open');
    },
    async voidInvoice(id) {
      const row = await find(id);
      if (row.status === 'paid') throw new ProviderError('local-test', 400, `Test invoice ${id} is paid and cannot be voided.`);
      return answer(id, row, 'void');
    },
    async markUncollectible(id) {
      return answer(id, await find(id), 'uncollectible');
    },
    async createCreditNote(id, input) {
      console.log(`[local invoicing] TEST credit note of ${input.amountCents} cents on ${id}: no real money`);
      return { id: `cn_local_${randomUUID()}` };
    },
    async parseWebhook() {
      throw new WebhookSignatureError('Local test invoices send no webhooks.');
    },
  };
}
