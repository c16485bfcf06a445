/**
 * Scheduled (daily at 21:00 UTC: 7 or 8 in the morning in Sydney): releases every title on pre-order whose release
 * date has come, with the first delivery the publisher entered in /admin, then sends its orders to be packed,
 * emails each buyer once and emails whoever is still on its waiting list, as Release now does (`_lib/preorders.ts`;
 * the mailing's batches are sent here, since no back office is open to send them). A title without a first
 * delivery waits, and the back office's Pre-orders says so; one the database refuses (a first delivery too small,
 * or no customs data) stays on pre-order, tried again the next day. Answers { titles: [what
 * happened to each, and why] }.
 */
import { readServerEnv, type ServerEnv } from '../src/config/env';
import { fulfilmentServices } from './_lib/fulfilment';
import { handle, json, type ScheduledFunctionConfig } from './_lib/http';
import { marketingIdentity } from './_lib/mail-links';
import type { NewsletterSender } from './_lib/newsletter';
import { releaseDueTitles } from './_lib/preorders';
import { serviceClient } from './_lib/supabase-admin';
import type { EmailProvider } from './_lib/providers/email';
import type { SupabaseClient } from '@supabase/supabase-js';

/** The sender of marketing email, or null (logged) when the deploy lacks what it needs: the releases still go ahead. */
function mailingSender(env: ServerEnv, db: SupabaseClient, email: EmailProvider, siteOrigin: string): NewsletterSender | null {
  try {
    return { db, email, identity: marketingIdentity(env, siteOrigin) };
  } catch (error) {
    console.error('[release-preorders] marketing email cannot be sent: a waiting list is left for Resume sending', error);
    return null;
  }
}

export default handle(async (request) => {
  const env = readServerEnv();
  const db = serviceClient(env);
  const services = fulfilmentServices(env, request);
  const titles = await releaseDueTitles(db, services, mailingSender(env, db, services.email, services.siteOrigin));
  if (titles.length > 0) console.log(`[release-preorders] ${titles.join('; ')}`);
  return json({ titles });
});

export const config: ScheduledFunctionConfig = { schedule: '0 21 * * *' };
