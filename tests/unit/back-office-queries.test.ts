/**
 * The back office's queries and the header's to-pack count: an order changed is the count asked for again; an invoice
 * changed is its lists and page read again, and its order's.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ORDERS_CHANGED_EVENT } from '@/features/account/account-links';
import { INVOICE_CHANGES, keys, ORDER_CHANGES, queryClient } from '@/features/admin/queries';

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

/** Each time the header's count is asked for again, as the page hears it. */
function countsAsked(): string[] {
  const page = new EventTarget();
  vi.stubGlobal('window', page);
  const asked: string[] = [];
  page.addEventListener(ORDERS_CHANGED_EVENT, () => asked.push('to pack'));
  return asked;
}

/** Lets the microtasks run, where the count's event is sent from. */
const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the header’s to-pack count follows the orders’ queries', () => {
  it('asks again once when an order action invalidates the orders, however many of their queries, and not for other data', async () => {
    const asked = countsAsked();
    queryClient.setQueryData([...keys.orders, 'list', 'to_pack', ''], { pages: [], pageParams: [] });
    queryClient.setQueryData([...keys.orders, 'detail', 'an-order'], []);
    queryClient.setQueryData(keys.stock, []);
    queryClient.setQueryData(keys.codes, []);

    await queryClient.invalidateQueries({ queryKey: keys.codes });
    await queryClient.invalidateQueries({ queryKey: keys.stock });
    await settled();
    expect(asked).toEqual([]);

    await Promise.all(ORDER_CHANGES.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
    await settled();
    expect(asked).toEqual(['to pack']);
    expect(queryClient.getQueryState([...keys.orders, 'detail', 'an-order'])?.isInvalidated).toBe(true);
  });
});

describe('what an invoice action reads again', () => {
  it('the invoices’ lists and pages and what an order action changes, the header’s count with them; not the quotes, the reviews or the books', async () => {
    const asked = countsAsked();
    const list = [...keys.invoices, 'list', 'open', ''];
    const invoice = [...keys.invoices, 'detail', 'an-invoice'];
    const orders = [...keys.orders, 'list', 'to_pack', ''];
    const others = [[...keys.quotes, 'new'], [...keys.quotes, 'detail', 'a-quote'], keys.reviews, keys.books];
    for (const key of [list, invoice, orders, keys.stock, keys.sales, ...others]) queryClient.setQueryData(key, []);

    await Promise.all(INVOICE_CHANGES.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
    await settled();
    expect(asked).toEqual(['to pack']);
    for (const key of [list, invoice, orders, keys.stock, keys.sales]) expect(queryClient.getQueryState(key)?.isInvalidated, JSON.stringify(key)).toBe(true);
    for (const key of others) expect(queryClient.getQueryState(key)?.isInvalidated, JSON.stringify(key)).toBe(false);
  });
});
