import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ORDER_STAGE_TEXT, orderStage } from '../../src/features/account/order-stage';
import { StatusBadge } from '../../src/features/account/StatusBadge';

describe('orderStage: what the status page says of an order', () => {
  it.each([
    [{ status: 'pending', paymentStatus: 'unpaid', refunded: false }, 'awaiting_payment'],
    [{ status: 'cancelled', paymentStatus: 'expired', refunded: false }, 'not_paid'],
    [{ status: 'processing', paymentStatus: 'paid', refunded: false }, 'packing'],
    // Paid, waiting for a title on pre-order: it ships, whole, when the title is out.
    [{ status: 'preorder', paymentStatus: 'paid', refunded: false }, 'preordered'],
    [{ status: 'shipped', paymentStatus: 'paid', refunded: false }, 'shipped'],
    [{ status: 'completed', paymentStatus: 'paid', refunded: false }, 'delivered'],
    // Cancelled by the publisher after payment, or sold out while the shopper paid.
    [{ status: 'cancelled', paymentStatus: 'refund_due', refunded: false }, 'refund_pending'],
    [{ status: 'cancelled', paymentStatus: 'refund_due', refunded: true }, 'refunded'],
  ] as const)('%o → %s', (state, stage) => {
    expect(orderStage(state)).toBe(stage);
  });

  it('only a paid order waiting to ship promises a tracking number', () => {
    const promising = Object.entries(ORDER_STAGE_TEXT)
      .filter(([, { text }]) => text.includes('tracking number'))
      .map(([stage]) => stage);
    expect(promising).toEqual(['packing']);
  });

  it('the status badge (profile, back office) and the status page say a pre-order in one word', () => {
    expect(ORDER_STAGE_TEXT.preordered.label).toBe('Pre-ordered');
    const preordered = renderToStaticMarkup(createElement(StatusBadge, { status: 'preorder' }));
    expect(preordered).toMatch(/>Pre-ordered<\/span>$/);
    // Read as written: a capitalize class would show "Pre-Ordered".
    expect(preordered).not.toContain('capitalize');
    // Every other status reads as the database has it.
    expect(renderToStaticMarkup(createElement(StatusBadge, { status: 'shipped' }))).toMatch(/>shipped<\/span>$/);
  });
});
