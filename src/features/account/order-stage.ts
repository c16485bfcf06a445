/**
 * Where an order stands, in the words a shopper reads on its status page: from the order's status, its payment
 * and its refund. One place, so the status page, the history and the emails never disagree.
 */
import { orderStatusLabel } from './status-label';

export type OrderStage = 'awaiting_payment' | 'not_paid' | 'preordered' | 'packing' | 'shipped' | 'delivered' | 'refund_pending' | 'refunded';

export interface OrderState {
  status: string;
  paymentStatus: string;
  refunded: boolean;
}

export function orderStage({ status, paymentStatus, refunded }: OrderState): OrderStage {
  if (paymentStatus === 'unpaid') return 'awaiting_payment';
  if (paymentStatus === 'expired') return 'not_paid';
  if (paymentStatus === 'refund_due' || status === 'cancelled') return refunded ? 'refunded' : 'refund_pending';
  if (status === 'completed') return 'delivered';
  if (status === 'shipped') return 'shipped';
  // Paid, waiting for a title on pre-order: the whole order ships when it is out.
  if (status === 'preorder') return 'preordered';
  return 'packing';
}

/** The heading and sentence of each stage. */
export const ORDER_STAGE_TEXT: Record<OrderStage, { label: string; text: string }> = {
  awaiting_payment: {
    label: 'Awaiting payment',
    text: 'We have not received payment for this order yet. Nothing has been charged, and nothing will be sent until it is paid.',
  },
  not_paid: { label: 'Not paid', text: 'This checkout was never paid, so nothing was charged and nothing will be sent.' },
  preordered: { label: orderStatusLabel('preorder'), text: 'Thank you! Your order ships in one parcel when the book you pre-ordered is out. We will email you when it is being packed.' },
  packing: { label: 'Paid — being packed', text: 'Thank you! We are packing your order. Your tracking number will arrive by email once your order ships.' },
  shipped: { label: 'Shipped', text: 'Your order is on its way.' },
  delivered: { label: 'Delivered', text: 'Your order has been delivered. We hope you enjoy it!' },
  refund_pending: { label: 'Cancelled', text: 'This order was cancelled. Your refund is on its way; we will email you when it is made.' },
  refunded: { label: 'Cancelled and refunded', text: 'This order was cancelled and your payment refunded. A refund reaches your card within 5–10 business days.' },
};
