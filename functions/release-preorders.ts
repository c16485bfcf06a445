/**
 * Scheduled (daily at 21:00 UTC: 7 or 8 in the morning in Sydney): releases every title on pre-order whose release
 * date has come, with the first delivery the publisher entered in /admin, then sends its orders to be packed and
 * emails each buyer once, as Release now does (`_lib/preorders.ts`). A title without a first delivery waits, and the
 * back office's Pre-orders says so; one the database refuses (a first delivery too small, or orders abroad and no
 * customs data) stays on pre-order, tried again the next day. Answers { titles: [what happened to each, and why] }.
 */
import { readServerEnv } from '../src/config/env';
import { fulfilmentServices } from './_lib/fulfilment';
import { handle, json, type ScheduledFunctionConfig } from './_lib/http';
import { releaseDueTitles } from './_lib/preorders';
import { serviceClient } from './_lib/supabase-admin';

export default handle(async (request) => {
  const env = readServerEnv();
  const titles = await releaseDueTitles(serviceClient(env), fulfilmentServices(env, request));
  if (titles.length > 0) console.log(`[release-preorders] ${titles.join('; ')}`);
  return json({ titles });
});

export const config: ScheduledFunctionConfig = { schedule: '0 21 * * *' };
