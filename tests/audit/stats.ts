/** The few statistics the audit reports: medians and spreads of a handful of runs. */

/** The middle value (the mean of the two middle ones for an even count); null for no values. */
export const median = (values: readonly number[]): number | null => {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** The largest less the smallest; null for no values. */
export const spread = (values: readonly number[]): number | null => (values.length ? Math.max(...values) - Math.min(...values) : null);

/** A difference with its sign: +3, -12, 0. */
export const signed = (n: number | null) => (n === null ? '—' : n > 0 ? `+${n}` : `${n}`);
