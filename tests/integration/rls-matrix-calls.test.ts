/**
 * The RLS matrix's function calls: who may call the staff and server functions, and what the shared ones answer to
 * each caller (tests/helpers/rls-matrix.ts).
 */
import { expect, it } from 'vitest';
import { CALLER_NAMES, CALLERS, type Caller, CODE_ID, describeMatrix, expected, INVOICE, NEWSLETTER, ORDER_A, ORDER_C, PART_REFUND, QUOTE, UNCONFIRMED_USER } from '../helpers/rls-matrix';
import { isPermissionError } from '../helpers/test-databases';

describeMatrix('function calls', ({ db, outcomes }) => {
  it('staff functions run for confirmed staff only; functions that email or refund for the service role only', async () => {
    const staffCalls = [
      `select public.admin_list_orders('all', '')`,
      `select public.admin_list_orders('unpaid', '')`,
      `select public.admin_get_order('${ORDER_A}')`,
      `select public.admin_set_stock('rosary-kit', 6, 'count')`,
      `select public.admin_mark_message_handled((select id from public.contact_submissions limit 1))`,
      `select public.admin_remove_subscriber(gen_random_uuid())`,
      `select public.require_staff()`,
      `select public.admin_sales('2026-01-01', '2026-12-31', 'month')`,
      `select public.admin_sales_orders('2026-01-01', '2026-12-31')`,
      `select public.admin_list_customers('')`,
      `select public.admin_get_customer('a@example.com')`,
      `select public.admin_set_order_note('${ORDER_A}', 'Wrap as a gift')`,
      `select public.admin_change_address('${ORDER_A}', '{"addressLine1": "2 New St", "city": "Sydney"}')`,
      `select public.admin_undo_delivered('${ORDER_A}')`,
      `select public.admin_receive_stock('rosary-kit', 3, 'delivery')`,
      `select public.admin_list_stock()`,
      `select public.admin_stock_history('rosary-kit')`,
      `select public.admin_order_refunds('${ORDER_A}')`,
      `select public.admin_create_newsletter('Spring news', 'Hello **all**')`,
      `select public.admin_list_newsletters()`,
      `select public.admin_list_codes()`,
      `select public.admin_create_code('{"code": "STAFF5", "kind": "amount", "amount": 5}')`,
      `select public.admin_set_code_active('${CODE_ID}', false)`,
      `select public.admin_get_orders(array['${ORDER_A}'::uuid])`,
      `select public.admin_list_orders('to_pack', 'a', null, 10)`,
      `select public.admin_list_invoices('all')`,
      `select public.admin_get_invoice('${INVOICE}')`,
      `select public.admin_list_quotes('new')`,
      `select public.admin_list_reviews()`,
      `select public.admin_review_counts()`,
      `select public.admin_list_preorders()`,
      `select public.admin_preorder_buyers('rosary-kit')`,
      `select public.release_title('rosary-kit', 5)`,
    ];
    for (const sql of staffCalls) expect(await outcomes(sql, 'select'), sql).toEqual(expected(['staff']));
    const serviceCalls = [
      ...[
        'fulfil_order',
        'cancel_unpaid_order',
        'claim_confirmation_email',
        'claim_refund_email',
        'claim_shipping_email',
        'claim_publisher_notice',
        'claim_preorder_ready_email',
        'claim_preorder_date_email',
      ].map((fn) => `select public.${fn}('${ORDER_A}')`),
      `select public.release_due_titles()`,
      `select public.claim_checkout_reminder('${ORDER_A}', 30)`,
      `select public.claim_review_requests(3, 10, 5)`,
      `select public.review_requests_sent(array['${ORDER_C}'::uuid])`,
      `select public.release_review_requests(array['${ORDER_C}'::uuid])`,
      `select public.review_form('${ORDER_A}')`,
      `select public.review_submit('${ORDER_A}', 'book-10-reasons', 4, 'Forged', 'Forged', 'X', true, 0)`,
      `select public.review_moderate((select id from public.reviews limit 1), 'reject', 'x', 'x')`,
      `select public.review_reply((select id from public.reviews limit 1), 'Thank you', 'x')`,
      `select public.record_refund('${ORDER_A}', 're_forged')`,
      `select public.link_checkout_session('${ORDER_A}', 'cs_forged', now() + interval '1 day', 'https://example.com/pay')`,
      `select public.ship_order('${ORDER_A}', '33ABC1234567', 'Australia Post', 'x')`,
      `select public.release_shipping_email('${ORDER_A}', null)`,
      `select public.mark_order_delivered('${ORDER_A}', 'x')`,
      `select public.cancel_paid_order('${ORDER_A}', 'x')`,
      `select public.check_promotion_code('PARISH10', 100, 'a@example.com')`,
      `select public.claim_shipment_send('${ORDER_A}', 'starshipit')`,
      `select public.record_shipment_sent('${ORDER_A}', '2', 'x')`,
      `select public.record_shipment_failed('${ORDER_A}', 'refused', 'x')`,
      `select public.record_shipment_label('${ORDER_A}', '33ABC1234567', 'Australia Post', 'x')`,
      `select public.record_shipment_cancelled('${ORDER_A}', 'Taken off Starshipit', 'x')`,
      `select public.record_tracking_event('00000000', repeat('c', 64), 'Delivered', null, null, now(), 'x')`,
      `select count(*) from public.shipments_to_retry(5)`,
      `select public.sync_catalog('${JSON.stringify([{ id: 'book-10-reasons', title: 'Synced', price: 1, category: 'Books', weight: 1, dimensions: { length: 1, width: 1, height: 1 } }])}'::jsonb)`,
      `select public.claim_low_stock_alerts('${ORDER_A}')`,
      `select public.release_low_stock_alert((select id from public.low_stock_alerts limit 1))`,
      `select public.availability_create_mailing('spare-book', 'Back', 'Body', 'x')`,
      `select public.back_in_stock_request('rosary-kit', 'x@example.com')`,
      `select public.back_in_stock_confirm(gen_random_uuid(), now())`,
      `select public.back_in_stock_decline(gen_random_uuid())`,
      `select public.marketing_opt_out('x@example.com', 'reminder')`,
      `select public.sync_low_stock_levels('[{"id": "rosary-kit", "low_stock_level": 3}]')`,
      `select public.sync_customs('[{"id": "rosary-kit", "customs_description": "Rosary kit", "hs_code": "7117.90", "origin_country": "IT"}]')`,
      `select public.begin_part_refund('${ORDER_A}', 1, 'Damaged', 'x')`,
      `select public.settle_part_refund('${PART_REFUND}', 're_forged', null)`,
      `select public.newsletter_claim_batch('${NEWSLETTER}', 10)`,
      `select public.newsletter_batch_sent('${NEWSLETTER}', 1)`,
      `select public.newsletter_unsubscribe(gen_random_uuid())`,
      `select public.newsletter_request('x@example.com', '/blog')`,
      `select public.newsletter_confirm(gen_random_uuid(), 'x', now())`,
      `select public.newsletter_decline(gen_random_uuid())`,
      `select public.sign_up_not_sent('newsletter', gen_random_uuid(), now())`,
      `select public.quote_request_create('{"organisation":"St Z","contact_name":"N","email":"n@example.com","phone":"02","address":{"country":"AU"},"lines":[{"product_id":"rosary-kit","quantity":2}]}')`,
      `select public.quote_request_decline('${QUOTE}', 'x')`,
      `select public.invoice_set_ship_before_payment('${INVOICE}', true, 'x')`,
      `select public.invoice_close(null, 'in_forged', 'void', 'x')`,
      `select public.invoice_mark_paid('in_forged', 100, 'aud', 'x')`,
      `select public.create_order('{"customer_email":"x@example.com","subtotal_amount":1,"shipping_amount":0,"total_amount":1,"shipping_address":{},"shipping_method":{},"payment_provider":"stripe"}', '[{"product_id":"rosary-kit","title":"Kit","quantity":1,"price_at_time":1}]')`,
    ];
    for (const sql of serviceCalls) expect(await outcomes(sql, 'select'), sql).toEqual(expected(['service']));
  });

  it('staff_orders_to_pack() counts the orders to pack for staff, and answers null to everyone else signed in', async () => {
    await db.admin.exec(`update public.orders set payment_status = 'paid', status = 'processing', paid_at = now() where id = '${ORDER_A}'`);
    try {
      const count = async (caller: Caller) => {
        try {
          return (await db.request(CALLERS[caller].role, CALLERS[caller].claims, 'select public.staff_orders_to_pack() as n')).rows[0]?.n;
        } catch (error) {
          if (isPermissionError(error)) return 'denied';
          throw error;
        }
      };
      expect(Object.fromEntries(await Promise.all(CALLER_NAMES.map(async (c) => [c, await count(c)])))).toEqual({
        anon: 'denied',
        shopperA: null,
        shopperB: null,
        staff: 1,
        unconfirmed: null,
        service: 'denied',
      });
    } finally {
      await db.admin.exec(`update public.orders set payment_status = 'unpaid', status = 'pending', paid_at = null where id = '${ORDER_A}'`);
    }
  });

  it('is_staff() is true only for a signed-in user with a confirmed address on the staff list, whatever its case', async () => {
    const isStaff = async (caller: Caller) => (await db.request(CALLERS[caller].role, CALLERS[caller].claims, 'select public.is_staff() as staff')).rows[0]?.staff;
    const results = Object.fromEntries(await Promise.all(CALLER_NAMES.map(async (c) => [c, await isStaff(c)] as const)));
    expect(results).toEqual(expected(['staff']));
  });

  it('an address confirmed later becomes staff then, not before', async () => {
    const { role, claims } = CALLERS.unconfirmed;
    const asHelper = `update auth.users set email_confirmed_at = now() where id = '${UNCONFIRMED_USER}'`;
    await db.admin.exec(asHelper);
    try {
      expect((await db.request(role, claims, 'select public.is_staff() as staff')).rows[0]?.staff).toBe(true);
    } finally {
      await db.admin.exec(`update auth.users set email_confirmed_at = null where id = '${UNCONFIRMED_USER}'`);
    }
  });

  it('staff read an order through admin_get_order, without its status token, and cannot read the token from the table', async () => {
    const { role, claims } = CALLERS.staff;
    const order = (await db.request(role, claims, `select public.admin_get_order('${ORDER_A}') as o`)).rows[0]?.o as Record<string, unknown>;
    expect(order.id).toBe(ORDER_A);
    expect(order).not.toHaveProperty('status_token');
    expect((await db.request(role, claims, 'select status_token from public.orders')).rows).toEqual([]);
  });
});
