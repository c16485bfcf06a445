/**
 * `npm run dev`: Astro's dev server, with hot reload for pages, components, MDX and YAML content, and the
 * functions and the embedded backend on the same origin, so the cart, checkout, test payment, sign-in and
 * forms work while the copy is being edited. http://localhost:4321 (PORT overrides).
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dev } from 'astro';
import { shopOnDevServer } from './dev-integration';
import { readNetlifyRules } from './netlify-rules';
import { startSchedules } from './schedules';
import { createDynamicHandler, localCountry } from './server';
import { pointFunctionsAtBackend, printShop, shopOptionsFromEnv, startBackendUnlessHosted } from './shop';

const projectRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const options = shopOptionsFromEnv(projectRoot);
const url = `http://localhost:${options.port}`;

// The database starts while Astro does; requests to the functions and the backend wait for it.
const backendStarting = startBackendUnlessHosted(options);
const dynamic = backendStarting.then((backend) => {
  pointFunctionsAtBackend(url, backend);
  return createDynamicHandler({ projectRoot, mounts: backend?.mounts });
});
// public/ is the publish folder's source: its _redirects and _headers end up in dist/.
const netlify = readNetlifyRules({ configPath: join(projectRoot, 'netlify.toml'), publishDir: join(projectRoot, 'public'), country: localCountry });
netlify.catch(failToStart);

/** A content mistake found at start (or any other failure) ends the run with its message, not a stack dump. */
async function failToStart(error: unknown): Promise<never> {
  const { message, loc } = error as { message?: string; loc?: { file?: string; line?: number } };
  console.error(`\n  npm run dev could not start:\n\n${String(message ?? error).replaceAll('**', '')}`);
  if (loc?.file) console.error(`  at ${loc.file}${loc.line ? `:${loc.line}` : ''}`);
  await (await backendStarting.catch(() => undefined))?.close();
  process.exit(1);
}

const server = await dev({
  root: projectRoot,
  server: { port: options.port },
  integrations: [shopOnDevServer({ dynamic, netlify })],
  vite: {
    server: {
      // Exactly the port the functions were told: another would be another origin.
      strictPort: true,
      // The database and test output change all the time and are no part of the site.
      watch: { ignored: ['**/local/.data/**', '**/test-results/**', '**/dist/**', '**/.dist-*/**'] },
    },
  },
}).catch(failToStart);
const backend = await backendStarting;
const [handler] = await Promise.all([dynamic, netlify]);
const stopSchedules = startSchedules(url, handler.scheduled);
printShop(projectRoot, url, backend, options.data);

const stop = () => {
  stopSchedules();
  void Promise.all([server.stop(), backend?.close()]).then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
