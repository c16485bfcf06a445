/**
 * `npm start`: the whole shop on one machine. Builds if needed, then serves the site, the functions
 * and the embedded backend on http://localhost:4321 (PORT overrides).
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfNeeded } from './build-if-needed';
import { startLocalServer } from './server';

const projectRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const port = Number(process.env.PORT ?? 4321);

if (!process.argv.includes('--no-build')) buildIfNeeded(projectRoot);
const local = await startLocalServer({ projectRoot, port });

console.log(`\n  Shop running at ${local.url}\n`);

const stop = () => void local.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
