/** The local invoicing stand-in's email to the school: the PO number once, as given; a late reminder says since when. */
import { describe, expect, it } from 'vitest';
import { invoiceEmailLines } from '../../functions/_lib/providers/local-invoicing';

const row = { number: 7, organisation: "St Mary's Primary", po_number: 'PO-4471', total: 515, due_on: '2026-12-10', emailed_at: null };

describe('the invoice email', () => {
  it('gives the PO number once, as the school gave it, and the due date', () => {
    const lines = invoiceEmailLines(row, new Date('2026-11-26T00:00:00Z'));
    expect(lines).toContain('PO number: PO-4471');
    expect(lines.join('\n')).not.toContain('PO PO-4471');
    expect(lines.join('\n')).toContain('Amount due: $515.00 AUD, by');
    expect(lines.join('\n')).not.toContain('overdue');
  });

  it('says a reminder past the due date is overdue, and since when', () => {
    const lines = invoiceEmailLines({ ...row, emailed_at: '2026-11-26T00:00:00Z' }, new Date('2026-12-20T00:00:00Z'));
    expect(lines.join('\n')).toMatch(/This invoice is overdue: it was due on .*10.*December.*2026\./);
  });

  it('sends a reminder before the due date without calling it overdue', () => {
    const lines = invoiceEmailLines({ ...row, emailed_at: '2026-11-26T00:00:00Z' }, new Date('2026-12-01T00:00:00Z'));
    expect(lines.join('\n')).not.toContain('overdue');
  });
});
