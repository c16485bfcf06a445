import { statusBadgeClass } from './orders';

/** An order's status as a coloured pill (profile, order status page, back office). */
export function StatusBadge({ status }: { status: string }) {
  return <span className={`inline-block rounded-full px-3 py-1 text-sm font-semibold capitalize ${statusBadgeClass(status)}`}>{status}</span>;
}
