import { describe, expect, it } from 'vitest';
import { orderTimeline } from '../../src/features/admin/order-timeline';

describe('orderTimeline', () => {
  it('lists the order placed, paid and every event in the order they happened', () => {
    const timeline = orderTimeline({
      created_at: '2026-11-28T02:56:00Z',
      // The invoice's order is paid after the invoice was sent, though "paid" is the order's own column.
      paid_at: '2026-11-28T02:57:00Z',
      history: [
        { action: 'invoice_sent', detail: 'INV-0042', actor: 'publisher@example.com', created_at: '2026-11-28T02:56:30Z' },
        { action: 'invoice_paid', detail: 'INV-0042 $450.00', actor: 'Stripe', created_at: '2026-11-28T02:57:00Z' },
        { action: 'shipped', detail: 'Australia Post 33TST', actor: 'publisher@example.com', created_at: '2026-11-28T03:10:00Z' },
      ],
    });
    expect(timeline.map((e) => e.what)).toEqual(['order placed', 'invoice sent', 'paid', 'invoice paid', 'shipped']);
    expect(timeline[1]).toMatchObject({ detail: 'INV-0042', actor: 'publisher@example.com' });
    expect(timeline[0]!.actor).toBeNull();
  });
});
