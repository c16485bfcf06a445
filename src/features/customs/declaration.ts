/**
 * The customs declaration printed with an international order's packing slip: what /api/admin-customs answers and
 * the packing-slip page draws. The lines come from functions/_lib/customs.ts (the one place they are made).
 */
import * as z from '../../lib/zod-mini';

const customsLineSchema = z.object({
  description: z.string(),
  quantity: z.number(),
  /** AUD for the line's copies, what the buyer paid after discounts: the lines add up to what was paid for the goods. */
  valueAud: z.number(),
  /** AUD per copy, rounded to the cent. */
  unitValueAud: z.number(),
  hsCode: z.string(),
  originCountry: z.string(),
  unitWeightGrams: z.number(),
});
export type CustomsLineView = z.infer<typeof customsLineSchema>;

export const customsAnswerSchema = z.object({
  /** The shop as the tax invoice names it, and its postal address. */
  sender: z.object({ name: z.string(), address: z.string(), abn: z.nullable(z.string()) }),
  declarations: z.array(z.union([z.object({ orderId: z.string(), lines: z.array(customsLineSchema) }), z.object({ orderId: z.string(), problem: z.string() })])),
});
export type CustomsAnswer = z.infer<typeof customsAnswerSchema>;

/** Orders a declaration is asked for at once (the packing slips print up to 500 orders). */
export const DECLARATIONS_PER_CALL = 200;

/** A parcel leaving Australia needs a declaration; a domestic one none. */
export const needsDeclaration = (country: string | null | undefined) => typeof country === 'string' && country.trim() !== '' && country.trim().toUpperCase() !== 'AU';

/** Printed books, newspapers and pictures: HS chapter 49. */
export const isPrintedMatter = (hsCode: string) => hsCode.startsWith('49');

/** Totals of the declaration: copies, net weight in grams and value in cents. */
export function declarationTotals(lines: readonly CustomsLineView[]) {
  return lines.reduce(
    (total, line) => ({
      quantity: total.quantity + line.quantity,
      weightGrams: total.weightGrams + line.unitWeightGrams * line.quantity,
      valueCents: total.valueCents + Math.round(line.valueAud * 100),
    }),
    { quantity: 0, weightGrams: 0, valueCents: 0 },
  );
}

/**
 * A line's copies as items whose value per copy is whole cents and whose sum is the line's value exactly: one item
 * when the value divides by the copies, else two (e.g. $56.00 for 3 copies: 2 × $18.67 and 1 × $18.66). The shipping
 * platform takes a value per copy, and the declaration shows the same.
 */
export function splitCustomsValue(quantity: number, valueCents: number): Array<{ quantity: number; unitCents: number }> {
  if (quantity <= 0) return [];
  const base = Math.floor(valueCents / quantity);
  const dearer = valueCents - base * quantity;
  return [...(dearer > 0 ? [{ quantity: dearer, unitCents: base + 1 }] : []), ...(quantity - dearer > 0 ? [{ quantity: quantity - dearer, unitCents: base }] : [])];
}
