/** What the Accounts section says about the books in Xero: when the connection needs the publisher, and each kind of document. */
import type { XeroStatus } from './contract';

/** A run still unfinished this long after it started has died (its process ended): as long as a claimed batch's lease. */
export const SYNC_LEASE_MINUTES = 5;

type Run = NonNullable<XeroStatus['last_sync']>;

/** Whether a run is posting now: unfinished, and within its lease. */
export const syncRunning = (run: Run | null, now = Date.now()) => !!run && !run.finished_at && now - Date.parse(run.started_at) < SYNC_LEASE_MINUTES * 60_000;

/** The last run in a sentence: what it posted, why it stopped early, or that it is posting now or died. `when` is its time as shown. */
export function lastSyncText(run: Run, when: string, now = Date.now()): string {
  const by = run.trigger === 'staff' ? 'Sync now' : 'on schedule';
  if (syncRunning(run, now)) return `A sync is posting now (started ${when}, ${by}): what it posted shows here when it ends.`;
  if (!run.finished_at) return `The sync started ${when} (${by}) did not finish: the next sync posts what it had claimed.`;
  return `Last sync ${when} (${by}): ${run.posted} posted${run.failed ? `, ${run.failed} refused` : ''}.${run.stopped ? ` ${run.stopped}` : ''}`;
}

/** What the next sync posts, in a sentence: the database's count, which is what the sync claims. */
export function waitingText({ waiting, refused }: Pick<XeroStatus, 'waiting' | 'refused'>): string {
  if (waiting === 0) return 'Nothing waits to be posted.';
  return `${waiting} waiting to be posted${refused > 0 ? ` (${refused} of them refused by Xero before: see below)` : ''}.`;
}

/** Stripe's payouts are listed from Stripe by the sync itself: the count cannot hold the ones made since the last sync. */
export const PAYOUTS_NOT_COUNTED = 'Payouts Stripe has made since the last sync are not counted here: the sync asks Stripe for them when it runs.';

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
