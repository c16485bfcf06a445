/**
 * An order on account's paperwork, as it stands at each moment: the database's `order_on_account` gives the invoice
 * (its number, the organisation, the PO number, the days it was issued, is due and was paid, its state), and these
 * words are the only ones the packing slip, the order status page, the emails and the Sales CSV use for it. A card
 * order has none (null) and is paid before anything is packed.
 */
import * as z from '../../lib/zod-mini';
import { formatLongDate, formatPrice, shopDay } from '../../lib/format';

export const orderOnAccountSchema = z.object({
  invoice_number: z.string(),
  organisation: z.string(),
  po_number: z.nullable(z.string()),
  status: z.enum(['sent', 'paid', 'void', 'uncollectible']),
  /** Sydney days, yyyy-mm-dd. */
  issued_on: z.string(),
  due_on: z.string(),
  paid_on: z.nullable(z.string()),
  hosted_url: z.nullable(z.string()),
});
export type OrderOnAccount = z.infer<typeof orderOnAccountSchema>;

/** A Sydney day (yyyy-mm-dd) in words, "28 December 2026": read at noon UTC, the same day in Sydney. */
export const dayInWords = (day: string) => formatLongDate(`${day.slice(0, 10)}T12:00:00Z`);

/** Where the invoice stands: "unpaid, due on 28 December 2026", "overdue since …", "paid on …", "void", "written off". */
export function accountPaymentState(account: OrderOnAccount, today: string = shopDay()): string {
  switch (account.status) {
    case 'paid':
      return `paid on ${dayInWords(account.paid_on ?? account.issued_on)}`;
    case 'void':
      return 'void';
    case 'uncollectible':
      return 'written off';
    case 'sent':
      return account.due_on < today ? `unpaid, overdue since ${dayInWords(account.due_on)}` : `unpaid, due on ${dayInWords(account.due_on)}`;
  }
}

/** "PO number 7781, invoice INV-0042": how the school files it. */
export const accountReferences = (account: OrderOnAccount) => [account.po_number && `PO number ${account.po_number}`, `invoice ${account.invoice_number}`].filter(Boolean).join(', ');

/**
 * The total as the paperwork states it: "Total paid $37.00 AUD" for an order paid at checkout; for an order on
 * account, whether it is paid: "Total $450.00 AUD: unpaid, due on 28 December 2026 (invoice INV-0042)".
 */
export function orderTotalLine(total: number, account: OrderOnAccount | null | undefined, today?: string): string {
  if (!account) return `Total paid ${formatPrice(total)} AUD`;
  return `Total ${formatPrice(total)} AUD: ${accountPaymentState(account, today)} (invoice ${account.invoice_number})`;
}
