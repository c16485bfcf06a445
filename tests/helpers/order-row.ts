/**
 * An order's row as a test writes it straight to the table (or hands it to `create_order`): the buyer's email, the
 * amounts with a total that adds up, one address and the courier, and whatever else the test is about.
 */
export function orderRow(email: string, { subtotal = 22, shipping = 15, discount = 0, ...columns }: { subtotal?: number; shipping?: number; discount?: number } & Record<string, unknown> = {}) {
  return {
    customer_email: email,
    subtotal_amount: subtotal,
    ...(discount ? { discount_amount: discount } : {}),
    shipping_amount: shipping,
    total_amount: subtotal - discount + shipping,
    shipping_address: { line1: '1 St' },
    shipping_method: { name: 'AU Standard Courier' },
    ...columns,
  };
}
