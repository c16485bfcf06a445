import { describe, expect, it } from 'vitest';
import { accountPaymentState, orderTotalLine, type OrderOnAccount } from '@/features/on-account/paperwork';

const account = (over: Partial<OrderOnAccount> = {}): OrderOnAccount => ({
  invoice_number: 'INV-0042',
  organisation: "St Mary's Catholic Primary School",
  po_number: 'PO-7781',
  status: 'sent',
  issued_on: '2026-11-28',
  due_on: '2026-12-28',
  paid_on: null,
  hosted_url: null,
  ...over,
});

describe('the paperwork of an order on account', () => {
  it('says what is true at each moment: unpaid and due, overdue, paid on its day, void, written off', () => {
    expect(accountPaymentState(account(), '2026-11-28')).toBe('unpaid, due on 28 December 2026');
    expect(accountPaymentState(account(), '2026-12-29')).toBe('unpaid, overdue since 28 December 2026');
    expect(accountPaymentState(account({ status: 'paid', paid_on: '2026-12-02' }))).toBe('paid on 2 December 2026');
    expect(accountPaymentState(account({ status: 'void' }))).toBe('void');
    expect(accountPaymentState(account({ status: 'uncollectible' }))).toBe('written off');
  });

  it('a slip’s total says "paid" only when it is: a card order, or an invoice once paid', () => {
    expect(orderTotalLine(37, null)).toBe('Total paid $37.00 AUD');
    expect(orderTotalLine(450, account(), '2026-11-28')).toBe('Total $450.00 AUD: unpaid, due on 28 December 2026 (invoice INV-0042)');
    expect(orderTotalLine(450, account({ status: 'paid', paid_on: '2026-12-02' }))).toBe('Total $450.00 AUD: paid on 2 December 2026 (invoice INV-0042)');
  });
});
