/**
 * An order's history as the back office lists it: when it was placed and paid, then each recorded event, all in the
 * order they happened (a payment at 1:57 pm comes after the invoice sent at 1:56 pm, whoever wrote which row first).
 */
import type { OrderDetail } from './orders-api';

interface TimelineEvent {
  at: string;
  what: string;
  detail: string;
  /** Who did it; none for the order's own moments (placed, paid). */
  actor: string | null;
}

export function orderTimeline(order: Pick<OrderDetail, 'created_at' | 'paid_at' | 'history'>): TimelineEvent[] {
  const events: TimelineEvent[] = [
    { at: order.created_at, what: 'order placed', detail: '', actor: null },
    ...(order.paid_at ? [{ at: order.paid_at, what: 'paid', detail: '', actor: null }] : []),
    ...order.history.map((e) => ({ at: e.created_at, what: e.action.replace(/_/g, ' '), detail: e.detail, actor: e.actor })),
  ];
  // A stable sort: events of the same moment keep the order they were recorded in.
  return events.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
}
