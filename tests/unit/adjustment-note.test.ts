/** The adjustment note a refund email carries: each fact on one line, the GST in the refund among them. */
import { describe, expect, it } from 'vitest';
import { adjustmentNoteText, type TaxInvoice } from '@/features/tax-invoice/tax-invoice';

const invoice: TaxInvoice = {
  title: 'Tax invoice',
  seller: { legalName: 'Little Faith Books Pty Ltd', abn: '51824753556' },
  orderNumber: '1001',
  date: '2026-11-20T10:00:00Z',
  buyer: 'Mary Smith',
  lines: [{ title: 'A Book', quantity: 2, unitPrice: 22, amount: 44 }],
  discount: null,
  shipping: { name: 'AU Standard', amount: 10 },
  total: 54,
  currency: 'AUD',
  gstApplies: true,
  gst: 4.91,
  adjustments: [],
};
const adjustment = { date: '2026-11-21T10:00:00Z', amount: 37, gst: 3.36, reason: 'Bent corner', refundId: 're_1' };

describe('adjustmentNoteText', () => {
  it('writes the GST in the refund as one line', () => {
    const lines = adjustmentNoteText(invoice, adjustment);
    expect(lines.at(-1)).toBe('GST in the refund: $3.36');
    expect(lines).toHaveLength(5);
  });

  it('an export says on one line why there is no GST; a seller not registered for GST writes no GST line', () => {
    expect(adjustmentNoteText({ ...invoice, gstApplies: false }, adjustment).at(-1)).toBe('GST: none (an export, GST-free)');
    expect(adjustmentNoteText({ ...invoice, title: 'Invoice' }, adjustment)).toHaveLength(4);
  });
});
