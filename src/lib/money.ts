/**
 * Money arithmetic. Prices are stored and shown in dollars (AUD, numeric(10,2) in the database) and added
 * up in whole cents, so 0.1 + 0.2 never shows up on a bill.
 */

export function toCents(amount: number): number {
  return Math.round(amount * 100);
}

export function fromCents(cents: number): number {
  return cents / 100;
}

/** The sum of amounts in dollars, added in cents. */
export function sumDollars(...amounts: number[]): number {
  return fromCents(amounts.reduce((sum, amount) => sum + toCents(amount), 0));
}

/** `amount` less `less`, in dollars, subtracted in cents. */
export function subtractDollars(amount: number, less: number): number {
  return fromCents(toCents(amount) - toCents(less));
}
