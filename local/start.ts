/**
 * `npm start`: the whole shop on one machine. Builds if needed, then serves the site, the functions
 * and the embedded backend on http://localhost:4321 (PORT overrides).
 */
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfNeeded } from './build-if-needed';
import { dataLocationFromEnv, startShop } from './shop';

const projectRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const port = Number(process.env.PORT ?? 4321);
const jwtExpirySeconds = process.env.LOCAL_JWT_EXPIRY ? Number(process.env.LOCAL_JWT_EXPIRY) : undefined;

if (!process.argv.includes('--no-build')) buildIfNeeded(projectRoot);
const data = dataLocationFromEnv();
const shop = await startShop({ projectRoot, port, data, jwtExpirySeconds });
const url = shop.server.url;

console.log(`\n  Shop running at ${url}\n`);
if (shop.backend) {
  console.log('  Embedded backend (local stand-in for Supabase):');
  console.log(`    API URL:          ${url}`);
  console.log(`    REST:             ${url}/rest/v1`);
  console.log(`    Auth:             ${url}/auth/v1 (local sign-in page stands in for Google)`);
  console.log(`    Data:             ${data === 'memory' ? 'in memory (discarded on exit)' : relative(projectRoot, data.dir)}`);
  console.log(`    anon key:         ${shop.backend.anonKey}`);
  console.log(`    service_role key: ${shop.backend.serviceRoleKey}\n`);
} else {
  console.log(`  Using hosted Supabase at ${process.env.PUBLIC_SUPABASE_URL}\n`);
}

const stop = () => void shop.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
