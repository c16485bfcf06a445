/**
 * Bringing an unpaid order's books back to the cart, from the link in the reminder a shopper agreed to:
 * `/cart?restore=<token>`. What the link and the page agree on: the parameter, the token's form, and the
 * answer of `/api/restore-cart` (the books as they are now: today's price and stock).
 */
import * as z from '../../lib/zod-mini';

export const RESTORE_PARAM = 'restore';
export const RESTORE_TOKEN_PATTERN = /^[0-9a-f]{64}$/;
export const RESTORE_PATH = '/api/restore-cart';

/** The reminder's link: the cart page, which fills the cart from the order behind the token. */
export const restoreCartUrl = (siteOrigin: string, token: string) => `${siteOrigin}/cart?${RESTORE_PARAM}=${token}`;

export const RESTORE_MESSAGES = {
  restored: 'Your books are back in your cart. Prices and stock are as they are today.',
  partly: 'Some of your books are back in your cart; the others are no longer available.',
  none: 'The books from that order are no longer available.',
  unknown: 'We could not find that order. The link may be incomplete: open it again from your email.',
} as const;

const dimensions = z.object({ length: z.number(), width: z.number(), height: z.number() });
export const restoreAnswer = z.object({
  lines: z.array(
    z.object({
      product: z.object({ id: z.string(), title: z.string(), price: z.number(), imageUrl: z.string(), stock: z.number(), weight: z.number(), dimensions }),
      quantity: z.number(),
    }),
  ),
  /** Books of the order that are no longer for sale or are sold out. */
  missing: z.number(),
});
export type RestoreAnswer = z.infer<typeof restoreAnswer>;

/** The cart with the restored lines put in: a book already in the cart takes the restored quantity, others are added. */
export function withRestoredLines<L extends { product: { id: string }; quantity: number }>(lines: readonly L[], restored: readonly L[]): L[] {
  const byId = new Map(restored.map((line) => [line.product.id, line]));
  const kept = lines.map((line) => byId.get(line.product.id) ?? line);
  const known = new Set(lines.map((line) => line.product.id));
  return [...kept, ...restored.filter((line) => !known.has(line.product.id))];
}

/** What the shopper is told once the link has been followed. */
export function restoreMessage(answer: RestoreAnswer): string {
  if (answer.lines.length === 0) return RESTORE_MESSAGES.none;
  return answer.missing > 0 ? RESTORE_MESSAGES.partly : RESTORE_MESSAGES.restored;
}
