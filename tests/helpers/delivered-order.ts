/** A paid order of one copy of a book, shipped and delivered, as rows to insert: what the review tests ask about. */
import { orderRow } from './order-row';

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();

/** The order's row: $22 with no postage, bought by `name`, delivered `deliveredDaysAgo` days ago (shipped two before). */
export function deliveredOrderRow(email: string, { name = 'Mary Anne Smith', deliveredDaysAgo = 0 } = {}) {
  return orderRow(email, {
    shipping: 0,
    customer_name: name,
    payment_status: 'paid',
    paid_at: new Date().toISOString(),
    status: 'completed',
    shipped_at: daysAgo(deliveredDaysAgo + 2),
    tracking_number: '33TST0000001',
    delivered_at: daysAgo(deliveredDaysAgo),
  });
}

/** Its one line. */
export const deliveredOrderItem = (orderId: string, book: { id: string; title: string }) => ({ order_id: orderId, product_id: book.id, title: book.title, quantity: 1, price_at_time: 22 });
