/**
 * `npm run staff -- add|remove|list [email]`: grants or revokes the publisher's back-office role by email (it
 * works for someone who has never signed in). A client of whichever backend is configured, like the Supabase
 * CLI: hosted Supabase with SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY, otherwise the running `npm start`
 * (http://localhost:4321, PORT overrides) with the embedded backend's well-known service key.
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { z } from 'zod';
import { emailAddress } from '../src/lib/schemas';
import { LOCAL_SERVICE_ROLE_KEY } from './backend/keys';

const USAGE = 'Usage: npm run staff -- add <email> | remove <email> | list';

const command = z.discriminatedUnion('verb', [
  z.object({ verb: z.enum(['add', 'remove']), email: emailAddress({ invalid: 'That is not an email address.' }).toLowerCase() }),
  z.object({ verb: z.literal('list') }),
]);

interface Target {
  url: string;
  key: string;
  where: string;
}

/** Hosted when both variables are set; otherwise the local shop, which must be running. */
async function target(env: NodeJS.ProcessEnv): Promise<Target> {
  if (env.SUPABASE_URL && env.SUPABASE_SERVICE_ROLE_KEY) return { url: env.SUPABASE_URL, key: env.SUPABASE_SERVICE_ROLE_KEY, where: `hosted Supabase at ${env.SUPABASE_URL}` };
  const url = `http://localhost:${env.PORT ?? 4321}`;
  try {
    const health = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(3000) });
    if (!health.ok) throw new Error(`status ${health.status}`);
  } catch {
    throw new Error(
      `The shop is not running at ${url}. Start it with \`npm start\` in another terminal${env.PORT ? ` (with PORT=${env.PORT})` : ''}, then run this again.\n` +
        (env.PORT ? '' : 'If it runs on another port, give this command the same one: PORT=8080 npm run staff -- add <email>.\n') +
        'For hosted Supabase, set SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY instead.',
    );
  }
  return { url, key: LOCAL_SERVICE_ROLE_KEY, where: `the local shop at ${url}` };
}

async function run(db: SupabaseClient, cmd: z.infer<typeof command>): Promise<string> {
  if (cmd.verb === 'list') {
    const { data, error } = await db.from('staff_members').select('email, added_at').order('email');
    if (error) throw new Error(error.message);
    const rows = z.array(z.object({ email: z.string(), added_at: z.string() })).parse(data);
    return rows.length ? rows.map((r) => `${r.email}  (since ${r.added_at.slice(0, 10)})`).join('\n') : 'No staff yet. Add one with: npm run staff -- add <email>';
  }
  if (cmd.verb === 'add') {
    const { error } = await db.from('staff_members').insert({ email: cmd.email });
    if (error?.code === '23505') return `${cmd.email} is already staff.`;
    if (error) throw new Error(error.message);
    return `${cmd.email} is now staff: they can open /admin after signing in with this address.`;
  }
  const { data, error } = await db.from('staff_members').delete().eq('email', cmd.email).select('email');
  if (error) throw new Error(error.message);
  return data.length ? `${cmd.email} is no longer staff.` : `${cmd.email} was not staff.`;
}

export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const [verb, email] = argv;
  const parsed = command.safeParse({ verb, email });
  if (!parsed.success) {
    console.error(`${parsed.error.issues[0]?.path[0] === 'email' ? `${parsed.error.issues[0].message}\n` : ''}${USAGE}`);
    return 2;
  }
  try {
    const where = await target(env);
    const db = createClient(where.url, where.key, { auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false } });
    console.log(`${await run(db, parsed.data)}\n(${where.where})`);
    return 0;
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return 1;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) process.exit(await main(process.argv.slice(2)));
