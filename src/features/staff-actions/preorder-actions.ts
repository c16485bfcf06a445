/**
 * A pre-order action as the back office sends it to /api/admin-preorders: set a title's allocation and the first
 * delivery expected, release it now with its first delivery, or move its release date. The function parses the
 * request with `preorderActionSchema`; the Pre-orders forms check what the publisher typed with the same fields.
 */
import { z } from '@/lib/zod';
import { LIMITS } from '@/config/constants';

const productId = z.string({ error: 'productId is missing.' }).trim().min(1, 'productId is missing.').max(100);
const copies = (what: string, max: number) =>
  z
    .number({ error: `${what} must be a whole number of copies, 0 or more.` })
    .int(`${what} must be a whole number of copies, 0 or more.`)
    .min(0, `${what} must be a whole number of copies, 0 or more.`)
    .max(max, `${what} can be at most ${max} copies.`);
export const allocation = copies('The allocation', 1_000_000);
export const firstDelivery = copies('The first delivery', LIMITS.stockMax);
/** A calendar day, as a date field gives it. */
export const releaseDate = z.string({ error: 'Choose the new release date.' }).regex(/^\d{4}-\d{2}-\d{2}$/, 'Choose the new release date.');

export const preorderActionSchema = z.discriminatedUnion(
  'action',
  [
    z.object({ action: z.literal('set'), productId, allocation, firstDelivery: firstDelivery.nullable() }),
    z.object({ action: z.literal('release'), productId, firstDelivery }),
    z.object({ action: z.literal('move_date'), productId, releaseDate }),
  ],
  { error: "action must be 'set', 'release' or 'move_date'." },
);
export type PreorderAction = z.infer<typeof preorderActionSchema>;
