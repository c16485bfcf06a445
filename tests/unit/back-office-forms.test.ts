/**
 * The back office's forms check what the publisher typed with the schemas the staff functions parse: each problem
 * is said as the function says it, on the field it is about, and what a form sends is what the function takes.
 */
import { describe, expect, it } from 'vitest';
import { orderActionSchema, parcelsForm, refundForm, shipForm } from '@/features/staff-actions/order-actions';
import { codeForm } from '@/features/staff-actions/promotion-codes';
import { stockActionSchema, stockForm } from '@/features/staff-actions/stock-actions';

const ORDER = '7d1f3e2a-5b4c-4d6e-8f90-1a2b3c4d5e6f';

/** Each problem of a parse as `path: message`. */
function problems(result: { success: boolean; error?: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> } }): string[] {
  return result.success ? [] : (result.error?.issues ?? []).map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

describe('the Stock form', () => {
  it('refuses what is not a whole number of copies, on the figure its button reads, and a missing reason', () => {
    for (const stock of ['', '-1', '1.5', 'ten']) expect(problems(stockForm.set.safeParse({ stock, reason: 'Counted' }))).toEqual(['stock: Stock must be a whole number, 0 or more.']);
    expect(problems(stockForm.receive.safeParse({ received: '0', reason: '  ' }))).toEqual(['received: Copies received must be a whole number, 1 or more.', 'reason: Give a reason for the change.']);
    // Set to reads New stock only: a bad Copies received does not stop it.
    expect(stockForm.set.safeParse({ stock: '7', received: 'x', reason: 'Counted' }).success).toBe(true);
  });

  it('sends what /api/admin-stock takes: a number and the reason on one line', () => {
    const checked = stockForm.receive.parse({ received: '30', reason: ' Reprint\n delivered ' });
    expect(checked).toEqual({ received: 30, reason: 'Reprint delivered' });
    expect(stockActionSchema.parse({ action: 'receive', productId: 'book-1', quantity: checked.received, reason: checked.reason })).toMatchObject({ quantity: 30 });
  });
});

describe('the part-refund form', () => {
  it('reads the amount in dollars, never more than is left, and asks for the reason the customer reads', () => {
    const form = refundForm(500);
    expect(problems(form.safeParse({ amount: '5', reason: '' }))).toEqual(['reason: Give a reason for the refund.']);
    expect(problems(form.safeParse({ amount: '5.01', reason: 'Postage' }))).toEqual(['amount: You can refund at most $5.00 on this order: that is what is left of its payment.']);
    expect(problems(form.safeParse({ amount: 'five', reason: 'Postage' }))).toEqual(['amount: Give the amount in dollars and cents, for example 12.50.']);
    expect(problems(form.safeParse({ amount: '0', reason: 'Postage' }))).toEqual(['amount: The amount must be more than zero.']);
  });

  it('sends the amount in cents, as /api/admin-order takes it', () => {
    const { amount, reason } = refundForm(500).parse({ amount: '$4.5', reason: 'Bent corner' });
    expect(amount).toBe(450);
    expect(orderActionSchema.parse({ action: 'refund_part', orderId: ORDER, amountCents: amount, reason })).toMatchObject({ amountCents: 450, reason: 'Bent corner' });
  });
});

describe('the ship forms', () => {
  it('say what is wrong with a tracking number on the number itself, as the function does', () => {
    const [problem] = problems(shipForm.safeParse({ carrier: 'auspost', carrierName: '', trackingNumber: '12' }));
    expect(problem).toMatch(/^trackingNumber: An Australia Post tracking number is 10 to 23 letters and digits/);
    expect(problems(orderActionSchema.safeParse({ action: 'ship', orderId: ORDER, shipment: { carrier: 'auspost', trackingNumber: '12' } }))[0]).toBe(
      `shipment: ${problem!.slice('trackingNumber: '.length)}`,
    );
    // A carrier's missing name is said on the name's field, not on the number.
    expect(problems(shipForm.safeParse({ carrier: 'other', carrierName: '', trackingNumber: 'ABC123' }))).toEqual(['carrierName: Name the carrier.']);
    expect(shipForm.safeParse({ carrier: 'auspost', carrierName: '', trackingNumber: '33QRS0000001' }).success).toBe(true);
  });

  it('mark each parcel whose number is wrong, by its order, and no other', () => {
    const other = '0b9c8d7e-6f5a-4b3c-9d2e-1f0a9b8c7d6e';
    const result = parcelsForm.safeParse({ carrier: 'auspost', carrierName: '', numbers: { [ORDER]: '33QRS0000001', [other]: 'RR123456789AU' } });
    expect(problems(result)).toEqual([
      `numbers.${other}: RR123456789AU is not a valid international tracking number: its check digit (the last digit) does not match. Copy it again from the label, e.g. RR123456785AU.`,
    ]);
    expect(problems(parcelsForm.safeParse({ carrier: 'other', carrierName: ' ', numbers: { [ORDER]: 'ABC123' } }))).toEqual(['carrierName: Name the carrier.']);
  });
});

describe('the new-code form', () => {
  const typed = { code: ' parish10 ', kind: 'percent' as const, amount: '10', minSubtotal: '', startsOn: '', endsOn: '', maxUses: '' };

  it('says each problem on its field', () => {
    expect(problems(codeForm.safeParse({ ...typed, code: 'x' }))).toEqual(['code: A code is 3 to 32 letters, digits, - or _.']);
    expect(problems(codeForm.safeParse({ ...typed, amount: '150' }))).toEqual(['amount: A percentage is a whole number from 1 to 100.']);
    expect(problems(codeForm.safeParse({ ...typed, amount: '' }))).toEqual(['amount: Enter how much the code takes off.']);
    expect(problems(codeForm.safeParse({ ...typed, maxUses: '0' }))).toEqual(['maxUses: The number of uses is a whole number above 0, or empty for no limit.']);
    expect(problems(codeForm.safeParse({ ...typed, startsOn: '2026-12-10', endsOn: '2026-12-01' }))).toEqual(['endsOn: The last day must be on or after the first.']);
  });

  it('gives the code as admin_create_code takes it', () => {
    expect(codeForm.parse({ ...typed, kind: 'amount', amount: '5.5', minSubtotal: '30', maxUses: '20' })).toEqual({
      code: 'PARISH10',
      kind: 'amount',
      amount: 5.5,
      min_subtotal: 30,
      starts_on: '',
      ends_on: '',
      max_uses: 20,
    });
  });
});
