/**
 * `npm run catalog:sync`: writes the catalog rows (title, price, weight, dimensions, category, featured,
 * image; never stock) from the book files to the database, and takes books whose file is gone off sale.
 * With SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY set it syncs hosted Supabase; without them the local
 * database (the embedded backend also syncs at every start, so a running `npm start` needs only a restart).
 *
 * `--if-configured` is the deploy build's step: it writes only in a production build (Netlify's CONTEXT is
 * `production`) with the hosted variables set, and otherwise skips with a line saying why. A deploy preview
 * or branch deploy builds code that is not yet on the live site, so it must never change the live catalog.
 */
import { createClient } from '@supabase/supabase-js';
import { describeSync, syncEmbedded, syncThroughApi } from './catalog';

export interface CatalogSyncDeps {
  /** Writes the catalog to hosted Supabase; resolves to the summary line. */
  hosted: (url: string, serviceKey: string) => Promise<string>;
  /** Writes the catalog to the local database; resolves to the summary line. */
  local: () => Promise<string>;
  log: (line: string) => void;
  error: (line: string) => void;
}

const defaultDeps: CatalogSyncDeps = {
  async hosted(url, serviceKey) {
    const service = createClient(url, serviceKey, { auth: { persistSession: false, autoRefreshToken: false } });
    return describeSync(await syncThroughApi(service));
  },
  async local() {
    // Loaded only here: the hosted path and the deploy build never open the embedded database.
    const { openDatabase } = await import('./backend/database');
    const db = await openDatabase();
    try {
      return `${describeSync(await syncEmbedded(db))} (local database)`;
    } finally {
      await db.close();
    }
  },
  log: (line) => console.log(line),
  error: (line) => console.error(line),
};

/** Runs the sync for these arguments and environment; resolves to the exit code. */
export async function main(argv: string[], env: Record<string, string | undefined> = process.env, deps: CatalogSyncDeps = defaultDeps): Promise<number> {
  const url = env.SUPABASE_URL?.trim();
  const serviceKey = env.SUPABASE_SERVICE_ROLE_KEY?.trim();
  const context = env.CONTEXT?.trim();
  try {
    if (argv.includes('--if-configured')) {
      if (context !== 'production') {
        deps.log(`Catalog sync skipped: ${context ? `this is a ${context} build` : 'not a Netlify build (CONTEXT is not set)'}; only a production deploy writes the catalog.`);
        return 0;
      }
      if (!url || !serviceKey) {
        deps.log('Catalog sync skipped: SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY are not set for this production build.');
        return 0;
      }
    }
    deps.log(url && serviceKey ? await deps.hosted(url, serviceKey) : await deps.local());
    return 0;
  } catch (error) {
    deps.error((error as Error).message);
    return 1;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = await main(process.argv.slice(2));
