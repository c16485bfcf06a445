import { orderStatusLabel } from './status-label';
import { statusBadgeClass } from './orders';

/** An order's status as a coloured pill (profile, order status page, back office); a quote request's in its own colours. */
export function StatusBadge({ status, colours = statusBadgeClass(status) }: { status: string; colours?: string }) {
  return <span className={`inline-block rounded-full px-3 py-1 text-sm font-semibold capitalize ${colours}`}>{orderStatusLabel(status)}</span>;
}
