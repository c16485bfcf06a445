import { hasOwnLabel, orderStatusLabel } from './status-label';
import { statusBadgeClass } from './orders';

/** An order's status as a coloured pill (profile, order status page, back office); a quote request's in its own colours. */
export function StatusBadge({ status, colours = statusBadgeClass(status) }: { status: string; colours?: string }) {
  // CSS capitalize would turn "Pre-ordered" into "Pre-Ordered": only the database's bare words are capitalised.
  return <span className={`inline-block rounded-full px-3 py-1 text-sm font-semibold ${hasOwnLabel(status) ? '' : 'capitalize'} ${colours}`}>{orderStatusLabel(status)}</span>;
}
