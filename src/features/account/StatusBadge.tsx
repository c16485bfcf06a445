import { statusBadgeClass } from './orders';

/** Statuses whose word in the database is not the one a person reads. */
const WORDS: Record<string, string> = { preorder: 'pre-order' };

/** An order's status as a coloured pill (profile, order status page, back office); a quote request's in its own colours. */
export function StatusBadge({ status, colours = statusBadgeClass(status) }: { status: string; colours?: string }) {
  return <span className={`inline-block rounded-full px-3 py-1 text-sm font-semibold capitalize ${colours}`}>{WORDS[status] ?? status}</span>;
}
