/** What the Accounts section says about the books in Xero: when the connection needs the publisher, and each kind of document. */
import type { XeroStatus } from './contract';

/** Days before the refresh token lapses when the back office starts to warn: every sync renews it for 60 days. */
export const RENEWAL_WARNING_DAYS = 7;

/** Why the connection needs the publisher, in words they can act on; null while it is well. */
export function connectionProblem(connection: XeroStatus['connection'], now = Date.now()): string | null {
  if (!connection) return null;
  if (connection.renewal_reason) return `The connection to Xero needs renewing: press Connect to Xero. (${connection.renewal_reason})`;
  if (connection.refresh_expires_at && Date.parse(connection.refresh_expires_at) - now < RENEWAL_WARNING_DAYS * 86_400_000) {
    return 'The connection to Xero lapses within a week because no sync has run: press Sync now, or Connect to Xero again.';
  }
  return null;
}

/** What each kind of ledger document is, for the failures list. */
export const KIND_LABELS: Record<string, string> = {
  sale: 'Invoice of order',
  school: 'School invoice of order',
  school_paid: 'Payment of the school invoice of order',
  school_void: 'Voiding of the school invoice of order',
  credit: 'Credit note of order',
  payout: 'Transfer and fees of Stripe payout',
};
