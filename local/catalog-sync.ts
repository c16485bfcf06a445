/**
 * `npm run catalog:sync`: writes the catalog rows (title, price, weight, dimensions, category, featured,
 * image; never stock) from the book files to the database, and takes books whose file is gone off sale.
 * With SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY set it syncs hosted Supabase; without them the local
 * database (the embedded backend also syncs at every start, so a running `npm start` needs only a restart).
 * `--if-configured` skips quietly without the hosted variables (a deploy build step).
 */
import { createClient } from '@supabase/supabase-js';
import { openDatabase } from './backend/database';
import { describeSync, syncEmbedded, syncThroughApi } from './catalog';

const url = process.env.SUPABASE_URL?.trim();
const serviceKey = process.env.SUPABASE_SERVICE_ROLE_KEY?.trim();

try {
  if (url && serviceKey) {
    const service = createClient(url, serviceKey, { auth: { persistSession: false, autoRefreshToken: false } });
    console.log(describeSync(await syncThroughApi(service)));
  } else if (process.argv.includes('--if-configured')) {
    console.log('Catalog sync skipped: SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY are not set.');
  } else {
    const db = await openDatabase();
    try {
      console.log(`${describeSync(await syncEmbedded(db))} (local database)`);
    } finally {
      await db.close();
    }
  }
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
}
