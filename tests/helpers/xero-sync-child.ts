/**
 * A sync to the local Xero stand-in in a process of its own, for a test to kill: `node --import tsx
 * tests/helpers/xero-sync-child.ts <shop url>` (LOCAL_XERO_FILE names the stand-in's books). Once the first batch's
 * invoices are made it prints "invoices" and stops there, its payments not sent, until the test ends it with SIGKILL.
 */
import { writeSync } from 'node:fs';
import { createClient } from '@supabase/supabase-js';
import { createLocalXero } from '../../functions/_lib/providers/local-xero';
import { syncToXero } from '../../functions/_lib/xero-sync';
import { LOCAL_SERVICE_ROLE_KEY } from '../../local/backend/keys';
import { readServerEnv } from '../../src/config/env';

const db = createClient(process.argv[2]!, LOCAL_SERVICE_ROLE_KEY, { auth: { persistSession: false, autoRefreshToken: false } });
await syncToXero(db, readServerEnv(), createLocalXero(), {
  trigger: 'schedule',
  batchSize: 2,
  afterCall: (_kind, step) => {
    if (step !== 'invoices') return;
    writeSync(1, 'invoices\n');
    // Held here, as a process is when it is killed between two calls: nothing after this runs.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
  },
});
