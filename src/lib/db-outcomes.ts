/**
 * The outcome words the database's functions answer, one list for each function whose answer the TypeScript reads.
 * Readers parse the word with `z.enum(DB_OUTCOMES.<function>)` (or `outcomeAnswer` in the functions, for a jsonb
 * answer), so a word this list lacks fails the parse and a word the code no longer expects fails the type-check;
 * `tests/integration/db-outcomes.test.ts` reads each function's source in the database and fails when it can answer
 * a word that is not here, or no longer answers one that is. Plain lists, no zod: both the browser's `zod/mini` and
 * the functions' zod read them.
 */
export const DB_OUTCOMES = {
  // Orders: payment, shipping, the back office's actions.
  fulfil_order: ['fulfilled', 'already_fulfilled', 'out_of_stock', 'code_used_up', 'cancelled', 'duplicate'],
  cancel_unpaid_order: ['cancelled', 'unchanged'],
  ship_order: ['shipped', 'corrected', 'unchanged', 'not_shippable'],
  mark_order_delivered: ['delivered', 'not_shipped'],
  admin_undo_delivered: ['shipped', 'not_delivered'],
  cancel_paid_order: ['cancelled', 'not_cancellable', 'on_account'],
  admin_change_address: ['changed', 'unchanged', 'not_editable'],
  begin_part_refund: ['reserved', 'too_much', 'not_refundable'],
  settle_part_refund: ['succeeded', 'failed', 'already'],
  claim_shipping_email: ['first', 'correction', 'none'],
  check_promotion_code: ['ok', 'not_valid', 'spend_more'],
  // Pre-orders: Release now (the daily release's entries carry the same words).
  release_title: ['released', 'too_few', 'customs_missing', 'not_preorder'],
  // The shipping platform.
  claim_shipment_send: ['claimed', 'busy', 'done', 'not_to_pack'],
  record_shipment_label: ['shipped', 'corrected', 'unchanged', 'not_shippable', 'not_sent'],
  record_tracking_event: ['unknown_order', 'unknown_parcel', 'duplicate', 'recorded', 'shipped', 'delivered', 'shipped_and_delivered', 'cancelled_order'],
  // Sign-ups and marketing email.
  newsletter_request: ['send', 'notice', 'wait'],
  back_in_stock_request: ['send', 'notice', 'wait', 'for_sale', 'unknown'],
  newsletter_confirm: ['confirmed', 'already', 'stale', 'unknown'],
  newsletter_decline: ['declined', 'unknown'],
  back_in_stock_confirm: ['confirmed', 'already', 'stale', 'unknown', 'available', 'sent'],
  back_in_stock_decline: ['declined', 'unknown'],
  newsletter_unsubscribe: ['unsubscribed', 'already', 'unknown'],
  marketing_opt_out: ['unsubscribed', 'already'],
  /** Only when it claims no batch: its answer then carries the batch's number and recipients instead. */
  newsletter_claim_batch: ['busy', 'done'],
  // Buying on account (quotes and invoices, read by functions/_lib/invoices.ts and send-notification.ts).
  quote_request_create: ['saved', 'unknown_book'],
  quote_request_decline: ['declined', 'not_new'],
  invoice_save_draft: ['saved', 'not_draft', 'unknown_book', 'quote_taken'],
  invoice_send: ['held', 'resume', 'short', 'already_sent', 'not_draft'],
  invoice_begin_credit: ['reserved', 'too_much', 'not_refundable'],
  invoice_mark_paid: ['paid', 'already', 'mismatch', 'not_open', 'unknown'],
  invoice_close: ['closed', 'already', 'not_open', 'unknown'],
  invoice_reminded: ['reminded', 'not_open'],
  invoice_set_ship_before_payment: ['changed', 'unchanged', 'not_open'],
  // Reviews: the buyer's save from the review link (functions/review.ts).
  review_submit: ['saved', 'updated', 'unchanged', 'changed_elsewhere', 'published', 'not_published', 'not_asked', 'not_in_order'],
} as const satisfies Record<string, readonly [string, ...string[]]>;

export type DbFunction = keyof typeof DB_OUTCOMES;
export type DbOutcome<F extends DbFunction> = (typeof DB_OUTCOMES)[F][number];

/** Where a function answering jsonb puts its outcome word; every other function in the list answers the word itself. */
export const DB_OUTCOME_KEYS = {
  begin_part_refund: 'outcome',
  settle_part_refund: 'outcome',
  claim_shipping_email: 'kind',
  check_promotion_code: 'status',
  release_title: 'outcome',
  claim_shipment_send: 'outcome',
  record_tracking_event: 'outcome',
  newsletter_request: 'action',
  back_in_stock_request: 'action',
  newsletter_claim_batch: 'state',
  quote_request_create: 'outcome',
  invoice_save_draft: 'outcome',
  invoice_send: 'outcome',
  invoice_begin_credit: 'outcome',
  review_submit: 'outcome',
} as const satisfies Partial<Record<DbFunction, string>>;
