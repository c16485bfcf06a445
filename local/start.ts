/**
 * `npm start`: the whole shop on one machine. Builds if needed, then serves the site, the functions
 * and the embedded backend on http://localhost:4321 (PORT overrides).
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfNeeded } from './build-if-needed';
import { printShop, shopOptionsFromEnv, startShop } from './shop';

const projectRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

if (!process.argv.includes('--no-build')) buildIfNeeded(projectRoot);
const options = shopOptionsFromEnv(projectRoot);
const shop = await startShop(options);
printShop(projectRoot, shop.server.url, shop.backend, options.data);

const stop = () => void shop.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
