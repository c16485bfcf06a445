/** The RLS matrix's columns (tests/helpers/rls-matrix.ts): a column added to a table gets its row here. */
import { expect, it } from 'vitest';
import { type Caller, describeMatrix, expected, matrixLabel, ORDER_A, ORDER_C, SHOPPERS_AND_STAFF } from '../helpers/rls-matrix';

/** Columns added to a table after its row in rls-matrix-tables.test.ts: read and written as their table's rows are. */
const COLUMNS: Record<string, Record<'select' | 'update', { sql: string; allowed: Caller[] }>> = {
  // A review's order, its moderation and its unpublished rows are nobody's to read but the server's.
  'reviews.order_id': {
    select: { sql: `select order_id from public.reviews`, allowed: ['service'] },
    update: { sql: `update public.reviews set order_id = '${ORDER_C}'`, allowed: [] },
  },
  'reviews.rejection_note': {
    select: { sql: `select rejection_note from public.reviews`, allowed: ['service'] },
    update: { sql: `update public.reviews set rejection_note = 'x'`, allowed: [] },
  },
  // How many times the buyer saved it: written by review_submit alone, read by the server's form.
  'reviews.version': {
    select: { sql: `select version from public.reviews`, allowed: ['service'] },
    update: { sql: `update public.reviews set version = version + 1`, allowed: [] },
  },
  // When the order's payment page closes: its shopper may read it with the order; only the server writes it.
  'orders.checkout_expires_at': {
    select: { sql: `select checkout_expires_at from public.orders where id = '${ORDER_A}'`, allowed: ['shopperA', 'service'] },
    update: { sql: `update public.orders set checkout_expires_at = now() + interval '1 day' where id = '${ORDER_A}'`, allowed: ['service'] },
  },
  // A gift's "Leave my name off the gift slip": its shopper reads it with the order; only the server writes it.
  'orders.gift_hide_sender': {
    select: { sql: `select gift_hide_sender from public.orders where id = '${ORDER_A}'`, allowed: ['shopperA', 'service'] },
    update: { sql: `update public.orders set gift_hide_sender = true where id = '${ORDER_A}'`, allowed: ['service'] },
  },
  // The name the payer gave the payment page: its shopper reads it with the order; only the server writes it.
  'orders.buyer_name': {
    select: { sql: `select buyer_name from public.orders where id = '${ORDER_A}'`, allowed: ['shopperA', 'service'] },
    update: { sql: `update public.orders set buyer_name = 'Payer' where id = '${ORDER_A}'`, allowed: ['service'] },
  },
  // Who bought the order, filled by the database from the names (public.order_buyer_name): read with the order; it
  // can only be set to its default, the rule's answer, by whoever may write the order.
  'orders.bought_by': {
    select: { sql: `select bought_by from public.orders where id = '${ORDER_A}'`, allowed: ['shopperA', 'service'] },
    update: { sql: `update public.orders set bought_by = default where id = '${ORDER_A}'`, allowed: ['service'] },
  },
  // One cart, one payment: the cart, what the order was priced from, its page's address, when a newer checkout of
  // the cart closed it, and the order a second payment was refunded for. Read with the order; only the server writes them.
  'orders.cart_id': {
    select: { sql: `select cart_id from public.orders where id = '${ORDER_A}'`, allowed: ['shopperA', 'service'] },
    update: { sql: `update public.orders set cart_id = 'cart-forged-1' where id = '${ORDER_A}'`, allowed: ['service'] },
  },
  'orders.cart_key': {
    select: { sql: `select cart_key from public.orders where id = '${ORDER_A}'`, allowed: ['shopperA', 'service'] },
    update: { sql: `update public.orders set cart_key = repeat('f', 64) where id = '${ORDER_A}'`, allowed: ['service'] },
  },
  'orders.checkout_url': {
    select: { sql: `select checkout_url from public.orders where id = '${ORDER_A}'`, allowed: ['shopperA', 'service'] },
    update: { sql: `update public.orders set checkout_url = 'https://example.com/pay' where id = '${ORDER_A}'`, allowed: ['service'] },
  },
  'orders.replaced_at': {
    select: { sql: `select replaced_at from public.orders where id = '${ORDER_A}'`, allowed: ['shopperA', 'service'] },
    update: { sql: `update public.orders set replaced_at = now() where id = '${ORDER_A}'`, allowed: ['service'] },
  },
  'orders.duplicate_of': {
    select: { sql: `select duplicate_of from public.orders where id = '${ORDER_A}'`, allowed: ['shopperA', 'service'] },
    update: { sql: `update public.orders set duplicate_of = null where id = '${ORDER_A}'`, allowed: ['service'] },
  },
  // A payment refunded because its code's last use went to another payment first: read with the order; only the server writes it.
  'orders.code_used_up': {
    select: { sql: `select code_used_up from public.orders where id = '${ORDER_A}'`, allowed: ['shopperA', 'service'] },
    update: { sql: `update public.orders set code_used_up = true where id = '${ORDER_A}'`, allowed: ['service'] },
  },
  // When a confirmed address that signed up again was told so: read as the list's rows are; only the server writes it.
  'newsletter_subscriptions.notice_sent_at': {
    select: { sql: `select notice_sent_at from public.newsletter_subscriptions`, allowed: ['staff', 'service'] },
    update: { sql: `update public.newsletter_subscriptions set notice_sent_at = now()`, allowed: ['service'] },
  },
  'back_in_stock_requests.notice_sent_at': {
    select: { sql: `select notice_sent_at from public.back_in_stock_requests`, allowed: ['service'] },
    update: { sql: `update public.back_in_stock_requests set notice_sent_at = now()`, allowed: ['service'] },
  },
  // The latest tracking event the shipping platform reported: its shopper reads it with the order; only the server writes it.
  'orders.tracking_status': {
    select: { sql: `select tracking_status from public.orders where id = '${ORDER_A}'`, allowed: ['shopperA', 'service'] },
    update: { sql: `update public.orders set tracking_status = 'Delivered' where id = '${ORDER_A}'`, allowed: ['service'] },
  },
  'orders.tracking_status_at': {
    select: { sql: `select tracking_status_at from public.orders where id = '${ORDER_A}'`, allowed: ['shopperA', 'service'] },
    update: { sql: `update public.orders set tracking_status_at = now() where id = '${ORDER_A}'`, allowed: ['service'] },
  },
  // A book's customs data, from its book file: public facts about a book for sale, like its weight; only the
  // catalog sync (the service role) writes them.
  'products.customs_description': {
    select: { sql: `select customs_description from public.products where id = 'book-10-reasons'`, allowed: SHOPPERS_AND_STAFF },
    update: { sql: `update public.products set customs_description = 'Printed book' where id = 'book-10-reasons'`, allowed: ['service'] },
  },
  'products.hs_code': {
    select: { sql: `select hs_code from public.products where id = 'book-10-reasons'`, allowed: SHOPPERS_AND_STAFF },
    update: { sql: `update public.products set hs_code = '4901.99' where id = 'book-10-reasons'`, allowed: ['service'] },
  },
  // A title's pre-order state: read as the rest of a book for sale; written by the catalog sync, the release
  // and the staff functions (security definer), so only the server's role writes it directly.
  'products.release_date': {
    select: { sql: `select release_date from public.products where id = 'book-10-reasons'`, allowed: SHOPPERS_AND_STAFF },
    update: { sql: `update public.products set release_date = '2027-06-01' where id = 'book-10-reasons'`, allowed: ['service'] },
  },
  'products.released_at': {
    select: { sql: `select released_at from public.products where id = 'book-10-reasons'`, allowed: SHOPPERS_AND_STAFF },
    update: { sql: `update public.products set release_date = '2027-06-01', released_at = now() where id = 'book-10-reasons'`, allowed: ['service'] },
  },
  'products.preorder_allocation': {
    select: { sql: `select preorder_allocation from public.products where id = 'book-10-reasons'`, allowed: SHOPPERS_AND_STAFF },
    update: { sql: `update public.products set preorder_allocation = 50 where id = 'book-10-reasons'`, allowed: ['service'] },
  },
  'products.preorder_first_delivery': {
    select: { sql: `select preorder_first_delivery from public.products where id = 'book-10-reasons'`, allowed: SHOPPERS_AND_STAFF },
    update: { sql: `update public.products set preorder_first_delivery = 500 where id = 'book-10-reasons'`, allowed: ['service'] },
  },
  // A pre-order's two once-only emails: its shopper reads them with the order; only the server writes them.
  'orders.preorder_ready_email_sent_at': {
    select: { sql: `select preorder_ready_email_sent_at from public.orders where id = '${ORDER_A}'`, allowed: ['shopperA', 'service'] },
    update: { sql: `update public.orders set preorder_ready_email_sent_at = now() where id = '${ORDER_A}'`, allowed: ['service'] },
  },
  'orders.preorder_date_emailed': {
    select: { sql: `select preorder_date_emailed from public.orders where id = '${ORDER_A}'`, allowed: ['shopperA', 'service'] },
    update: { sql: `update public.orders set preorder_date_emailed = '2027-06-01' where id = '${ORDER_A}'`, allowed: ['service'] },
  },
  'products.origin_country': {
    select: { sql: `select origin_country from public.products where id = 'book-10-reasons'`, allowed: SHOPPERS_AND_STAFF },
    update: { sql: `update public.products set origin_country = 'CN' where id = 'book-10-reasons'`, allowed: ['service'] },
  },
  // Buying on account: an invoice's order, who it is for, their PO number, and whether it is packed before payment.
  // Its shopper reads them with the order; only the server writes them.
  // The order's number: its shopper reads it with the order; nobody changes it, the server included.
  'orders.number': {
    select: { sql: `select number from public.orders where id = '${ORDER_A}'`, allowed: ['shopperA', 'service'] },
    update: { sql: `update public.orders set number = default where id = '${ORDER_A}'`, allowed: [] },
  },
  'orders.kind': {
    select: { sql: `select kind from public.orders where id = '${ORDER_A}'`, allowed: ['shopperA', 'service'] },
    update: { sql: `update public.orders set kind = 'checkout' where id = '${ORDER_A}'`, allowed: ['service'] },
  },
  'orders.organisation': {
    select: { sql: `select organisation from public.orders where id = '${ORDER_A}'`, allowed: ['shopperA', 'service'] },
    update: { sql: `update public.orders set organisation = null where id = '${ORDER_A}'`, allowed: ['service'] },
  },
  'orders.po_number': {
    select: { sql: `select po_number from public.orders where id = '${ORDER_A}'`, allowed: ['shopperA', 'service'] },
    update: { sql: `update public.orders set po_number = null where id = '${ORDER_A}'`, allowed: ['service'] },
  },
  'orders.ship_before_payment': {
    select: { sql: `select ship_before_payment from public.orders where id = '${ORDER_A}'`, allowed: ['shopperA', 'service'] },
    update: { sql: `update public.orders set ship_before_payment = false where id = '${ORDER_A}'`, allowed: ['service'] },
  },
};

describeMatrix('columns', ({ outcomes }) => {
  for (const [column, row] of Object.entries(COLUMNS)) {
    for (const operation of ['select', 'update'] as const) {
      const { sql, allowed } = row[operation];
      it(`${column} ${operation}: ${matrixLabel(allowed)}`, async () => {
        expect(await outcomes(sql, operation)).toEqual(expected(allowed));
      });
    }
  }
});
