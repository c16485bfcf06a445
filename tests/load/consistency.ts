/**
 * After the load run, with the server closed: opens the data folder directly and holds the database to
 * what the shoppers were told, and to the stock arithmetic.
 */
import { openDatabase } from '../../local/backend/database';
import { priceLine, type QuantityPrice } from '../../src/features/catalog/quantity-prices';
import { fromCents, toCents } from '../../src/lib/money';
import type { Ledger } from './shopper';

export interface Check {
  name: string;
  pass: boolean;
  detail: string;
}

export interface DatabaseFigures {
  orders: number;
  byPaymentStatus: Record<string, number>;
  /** Orders the database has that no shopper was told about (their request was cut off). */
  untold: number;
  stock: Array<{ id: string; initial: number; sold: number; final: number }>;
}

interface OrderRow {
  id: string;
  checkout_session_id: string | null;
  status: string;
  payment_status: string;
  paid_at: string | null;
  fulfilled_at: string | null;
  refunded_at: string | null;
}

const list = (ids: string[], max = 5) => (ids.length ? `${ids.slice(0, max).join(', ')}${ids.length > max ? ` and ${ids.length - max} more` : ''}` : '');

export async function checkConsistency(dataDir: string, initialStock: Map<string, number>, ledger: Ledger): Promise<{ checks: Check[]; figures: DatabaseFigures }> {
  const db = await openDatabase({ dir: dataDir });
  try {
    const orders = (await db.query<OrderRow>('select id, checkout_session_id, status, payment_status, paid_at, fulfilled_at, refunded_at from public.orders')).rows;
    const items = (await db.query<{ order_id: string; product_id: string; quantity: number }>('select order_id, product_id, quantity from public.order_items')).rows;
    const products = (await db.query<{ id: string; stock: number }>('select id, stock from public.products order by id')).rows;
    const sold = (
      await db.query<{ product_id: string; sold: number }>(
        `select oi.product_id, sum(oi.quantity)::int as sold from public.order_items oi
         join public.orders o on o.id = oi.order_id where o.fulfilled_at is not null group by oi.product_id`,
      )
    ).rows;

    const byId = new Map(orders.map((o) => [o.id, o]));
    const itemsOf = new Map<string, Map<string, number>>();
    for (const item of items) {
      const lines = itemsOf.get(item.order_id) ?? new Map<string, number>();
      lines.set(item.product_id, item.quantity);
      itemsOf.set(item.order_id, lines);
    }
    const told = [...ledger.orders.values()];
    const checks: Check[] = [];

    // 1. Every order a shopper was told about exists, once (one row per checkout session).
    const missing = told.filter((t) => !byId.has(t.orderId)).map((t) => t.orderId);
    const sessions = new Map<string, number>();
    orders.forEach((o) => o.checkout_session_id && sessions.set(o.checkout_session_id, (sessions.get(o.checkout_session_id) ?? 0) + 1));
    const duplicated = told.filter((t) => (sessions.get(t.sessionId) ?? 0) !== 1).map((t) => t.sessionId);
    checks.push({
      name: 'every order a shopper was told was created exists exactly once',
      pass: missing.length === 0 && duplicated.length === 0,
      detail: `${told.length} told, ${missing.length} missing${missing.length ? ` (${list(missing)})` : ''}, ${duplicated.length} sessions not exactly once`,
    });

    // 2. Fault: nothing committed before the restart was lost.
    const beforeRestart = told.filter((t) => t.phase === 'before-restart');
    const lost = beforeRestart.filter((t) => !byId.has(t.orderId)).map((t) => t.orderId);
    checks.push({
      name: 'no order created before the restart was lost',
      pass: lost.length === 0,
      detail: `${beforeRestart.length} created before the restart, ${lost.length} lost${lost.length ? ` (${list(lost)})` : ''}`,
    });

    // 3. Paid orders have their items — exactly the cart the shopper sent.
    const paidOrders = orders.filter((o) => o.payment_status === 'paid' || o.payment_status === 'refund_due');
    const withoutItems = paidOrders.filter((o) => !itemsOf.get(o.id)?.size).map((o) => o.id);
    const wrongItems = told
      .filter((t) => byId.has(t.orderId))
      .filter((t) => {
        const lines = itemsOf.get(t.orderId) ?? new Map<string, number>();
        return lines.size !== t.items.length || t.items.some((line) => lines.get(line.id) !== line.quantity);
      })
      .map((t) => t.orderId);
    checks.push({
      name: 'every paid order has its items (the cart the shopper sent)',
      pass: withoutItems.length === 0 && wrongItems.length === 0,
      detail: `${paidOrders.length} paid, ${withoutItems.length} without items${withoutItems.length ? ` (${list(withoutItems)})` : ''}, ${wrongItems.length} told orders whose items differ from the cart`,
    });

    // 4. Stock: initial − units of fulfilled orders = final, per product; never below zero.
    const soldOf = new Map(sold.map((s) => [s.product_id, s.sold]));
    const stock = products.map((p) => ({ id: p.id, initial: initialStock.get(p.id) ?? Number.NaN, sold: soldOf.get(p.id) ?? 0, final: p.stock }));
    const unbalanced = stock.filter((s) => s.initial - s.sold !== s.final);
    checks.push({
      name: 'initial stock − units of fulfilled orders = final stock, for each product',
      pass: unbalanced.length === 0,
      detail: stock.map((s) => `${s.id}: ${s.initial} − ${s.sold} = ${s.initial - s.sold}, database ${s.final}`).join('; '),
    });
    const negative = stock.filter((s) => s.final < 0);
    checks.push({ name: 'no stock below zero', pass: negative.length === 0, detail: negative.length ? list(negative.map((s) => `${s.id} ${s.final}`)) : 'none' });

    // 5. Paid once: fulfilled only when paid, and a second payment changed nothing.
    const paidNotFulfilled = orders.filter((o) => (o.payment_status === 'paid') !== (o.fulfilled_at !== null)).map((o) => o.id);
    const changed = ledger.doublePays.filter((d) => d.first === null || d.first !== d.second).map((d) => d.orderId);
    checks.push({
      name: 'no order paid twice (fulfilled_at set once)',
      pass: paidNotFulfilled.length === 0 && changed.length === 0,
      detail: `${ledger.doublePays.length} orders paid a second time on purpose, ${changed.length} changed; ${paidNotFulfilled.length} orders paid without fulfilment or fulfilled without payment`,
    });

    // 6. A payment whose copies sold out first was refunded (the refund recorded once, on that order only).
    const refundDue = orders.filter((o) => o.payment_status === 'refund_due');
    const unrefunded = refundDue.filter((o) => o.refunded_at === null).map((o) => o.id);
    const strayRefunds = orders.filter((o) => o.payment_status !== 'refund_due' && o.refunded_at !== null).map((o) => o.id);
    checks.push({
      name: 'every payment that found its copies sold out was refunded',
      pass: unrefunded.length === 0 && strayRefunds.length === 0,
      detail: `${refundDue.length} sold out at fulfilment, ${unrefunded.length} not refunded${unrefunded.length ? ` (${list(unrefunded)})` : ''}, ${strayRefunds.length} refunds on other orders`,
    });

    // 7. What shoppers were told matches the database.
    const contradictions = told
      .filter((t) => byId.has(t.orderId))
      .filter((t) => {
        const o = byId.get(t.orderId)!;
        if (t.outcome === 'paid') return o.payment_status !== 'paid' || o.fulfilled_at === null;
        if (t.outcome === 'refund_due') return o.payment_status !== 'refund_due' || o.fulfilled_at !== null;
        if (t.outcome === 'cancelled') return o.status !== 'cancelled' || o.fulfilled_at !== null;
        return false;
      })
      .map((t) => `${t.orderId} told ${t.outcome}, database ${byId.get(t.orderId)!.payment_status}`);
    checks.push({
      name: 'every payment result a shopper was shown matches the database',
      pass: contradictions.length === 0,
      detail: contradictions.length ? list(contradictions, 3) : `${told.filter((t) => t.outcome !== 'created').length} results, all match`,
    });

    // 8. Quantity prices and codes: every line at the price its quantity reaches in the database's tiers, every
    //    order adding up in cents (goods − the code's discount + shipping), every discount the code's own rule, the
    //    code the shopper sent, and no code used more often than it allows.
    const money = (
      await db.query<{ id: string; subtotal: string; discount: string; shipping: string; total: string; code: string | null; status: string }>(
        `select id, subtotal_amount::text as subtotal, discount_amount::text as discount, shipping_amount::text as shipping, total_amount::text as total, promotion_code as code, status from public.orders`,
      )
    ).rows;
    const lines = (
      await db.query<{ order_id: string; product_id: string; quantity: number; price: string }>('select order_id, product_id, quantity, price_at_time::text as price from public.order_items')
    ).rows;
    const basePrice = new Map((await db.query<{ id: string; price: string }>('select id, price::text from public.products')).rows.map((p) => [p.id, Number(p.price)]));
    const tiers = new Map<string, QuantityPrice[]>();
    for (const t of (await db.query<{ product_id: string; min_quantity: number; price: string }>('select product_id, min_quantity, price::text from public.product_quantity_prices')).rows) {
      tiers.set(t.product_id, [...(tiers.get(t.product_id) ?? []), { minQuantity: t.min_quantity, price: Number(t.price) }]);
    }
    const codes = new Map(
      (await db.query<{ code: string; kind: string; amount: string; max_uses: number | null }>('select code, kind, amount::text, max_uses from public.promotion_codes')).rows.map((c) => [c.code, c]),
    );
    const mispriced = lines.filter((l) => toCents(Number(l.price)) !== toCents(priceLine(basePrice.get(l.product_id)!, tiers.get(l.product_id), l.quantity).unitPrice));
    const tierLines = lines.filter((l) => priceLine(basePrice.get(l.product_id)!, tiers.get(l.product_id), l.quantity).tier);
    checks.push({
      name: 'every order line is priced at the quantity price its quantity reaches in the database',
      pass: mispriced.length === 0,
      detail: `${lines.length} lines, ${tierLines.length} at a quantity price, ${mispriced.length} mispriced${mispriced.length ? ` (${list(mispriced.map((l) => `${l.order_id} ${l.quantity}×${l.price}`))})` : ''}`,
    });
    const goodsOf = new Map<string, number>();
    for (const l of lines) goodsOf.set(l.order_id, (goodsOf.get(l.order_id) ?? 0) + toCents(Number(l.price)) * l.quantity);
    const wrongSums = money.filter((o) => {
      const [subtotal, discount, shipping, total] = [o.subtotal, o.discount, o.shipping, o.total].map((v) => toCents(Number(v))) as [number, number, number, number];
      const code = o.code ? codes.get(o.code) : undefined;
      const expected = !code ? 0 : code.kind === 'percent' ? Math.round((subtotal * Number(code.amount)) / 100) : Math.min(toCents(Number(code.amount)), subtotal);
      return subtotal !== (goodsOf.get(o.id) ?? 0) || discount !== expected || total !== subtotal - discount + shipping;
    });
    const discounted = money.filter((o) => o.code);
    const wrongCode = told.filter((t) => byId.has(t.orderId) && (money.find((o) => o.id === t.orderId)?.code ?? null) !== t.code).map((t) => t.orderId);
    checks.push({
      name: 'every order adds up to the cent: lines = goods, goods − the code’s discount + shipping = total, and the code the shopper sent',
      pass: wrongSums.length === 0 && wrongCode.length === 0,
      detail: `${money.length} orders, ${discounted.length} with a code (${fromCents(discounted.reduce((sum, o) => sum + toCents(Number(o.discount)), 0)).toFixed(2)} AUD off), ${wrongSums.length} not adding up${wrongSums.length ? ` (${list(wrongSums.map((o) => o.id))})` : ''}, ${wrongCode.length} with another code than sent`,
    });
    const overUsed = [...codes.values()].filter((c) => c.max_uses !== null && money.filter((o) => o.code === c.code && o.status !== 'cancelled').length > c.max_uses);
    const usesOf = (code: string) => money.filter((o) => o.code === code && o.status !== 'cancelled').length;
    checks.push({
      name: 'no code used more often than it allows; the shoppers refused were told why',
      // Refused once the last use was paid for: a used-up code answers as one that does not exist. A payment that
      // came after it is refunded, its order cancelled, so it is not counted.
      pass: overUsed.length === 0 && ledger.codeRefusals.every((r) => r.status === 'not_valid'),
      detail: `${[...codes.values()].map((c) => `${c.code}: ${usesOf(c.code)} uses taken${c.max_uses === null ? '' : ` of ${c.max_uses}`}`).join('; ')}; ${ledger.codeRefusals.length} checkouts refused (${[...new Set(ledger.codeRefusals.map((r) => r.status))].join(', ') || 'none'})`,
    });

    const byPaymentStatus: Record<string, number> = {};
    orders.forEach((o) => (byPaymentStatus[o.payment_status] = (byPaymentStatus[o.payment_status] ?? 0) + 1));
    return { checks, figures: { orders: orders.length, byPaymentStatus, untold: orders.filter((o) => !ledger.orders.has(o.id)).length, stock } };
  } finally {
    await db.close();
  }
}
