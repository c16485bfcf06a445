/** A part refund's amount as the publisher types it, read the same way in /admin and by /api/admin-order. */

/** The most one refund may be, in cents (a sanity bound; the database holds it to what is left of the order). */
export const MAX_REFUND_CENTS = 10_000_000;

/**
 * Reads an amount typed in dollars ("12.50", "$12.5", "A$ 12") as whole cents; an answer for the publisher when
 * it is not one.
 */
export function parseRefundAmount(typed: string): { cents: number } | { error: string } {
  const text = typed.trim().replace(/^(A\$|AUD|\$)\s*/i, '');
  const match = text.match(/^(\d{1,7})(?:\.(\d{1,2}))?$/);
  if (!match) return { error: 'Give the amount in dollars and cents, for example 12.50.' };
  const cents = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  if (cents < 1) return { error: 'The amount must be more than zero.' };
  if (cents > MAX_REFUND_CENTS) return { error: 'That amount is more than any order.' };
  return { cents };
}
