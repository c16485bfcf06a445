/**
 * An order status in the words a person reads, where they differ from the database's (every other status reads as
 * it is, capitalised): the status badge (profile, back office) and the status page's stage for a pre-order both
 * take their word from here. A module of its own, so a page that shows only the badge carries only this.
 */
const ORDER_STATUS_LABELS: Readonly<Partial<Record<string, string>>> = { preorder: 'Pre-ordered' };

export const orderStatusLabel = (status: string): string => ORDER_STATUS_LABELS[status] ?? status;

/** Whether the status has words of its own, written as they are read (a badge must not capitalise "Pre-ordered" to "Pre-Ordered"). */
export const hasOwnLabel = (status: string): boolean => Object.hasOwn(ORDER_STATUS_LABELS, status);
