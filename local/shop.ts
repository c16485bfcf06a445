/**
 * The whole shop on one machine: the local server plus, unless a hosted Supabase is configured,
 * the embedded backend on the same origin. Used by `npm start`, the browser tests and the load run.
 */
import { join, relative } from 'node:path';
import { startEmbeddedBackend, type EmbeddedBackend } from './backend';
import { DEFAULT_DATA_DIR, type DataLocation } from './backend/database';
import { type LocalServerOptions, startLocalServer, type LocalServer } from './server';

export interface ShopOptions {
  projectRoot: string;
  port: number;
  data?: DataLocation;
  jwtExpirySeconds?: number;
  /** The build to serve (see LocalServerOptions). */
  distDir?: string;
  /** How a published review rebuilds the site (see LocalServerOptions). */
  siteBuild?: LocalServerOptions['siteBuild'];
}

export interface Shop {
  server: LocalServer;
  backend?: EmbeddedBackend;
  close: () => Promise<void>;
}

export function dataLocationFromEnv(env: NodeJS.ProcessEnv = process.env): DataLocation {
  if (env.LOCAL_DB === 'memory') return 'memory';
  return { dir: env.LOCAL_DATA_DIR ? join(process.cwd(), env.LOCAL_DATA_DIR) : DEFAULT_DATA_DIR };
}

/** What `npm start` and `npm run dev` read from the environment: PORT, LOCAL_DB / LOCAL_DATA_DIR, LOCAL_JWT_EXPIRY. */
export function shopOptionsFromEnv(projectRoot: string, env: NodeJS.ProcessEnv = process.env): ShopOptions & { data: DataLocation } {
  return {
    projectRoot,
    port: Number(env.PORT ?? 4321),
    data: dataLocationFromEnv(env),
    jwtExpirySeconds: env.LOCAL_JWT_EXPIRY ? Number(env.LOCAL_JWT_EXPIRY) : undefined,
  };
}

/** The embedded backend, unless a hosted Supabase is configured. */
export async function startBackendUnlessHosted(options: Pick<ShopOptions, 'data' | 'jwtExpirySeconds'>): Promise<EmbeddedBackend | undefined> {
  if (process.env.PUBLIC_SUPABASE_URL) return undefined;
  return startEmbeddedBackend({ data: options.data, jwtExpirySeconds: options.jwtExpirySeconds });
}

/** The functions reach the embedded backend exactly as they would reach hosted Supabase. */
export function pointFunctionsAtBackend(siteUrl: string, backend: EmbeddedBackend | undefined): void {
  if (!backend) return;
  process.env.SUPABASE_URL = siteUrl;
  process.env.SUPABASE_SERVICE_ROLE_KEY = backend.serviceRoleKey;
}

export async function startShop(options: ShopOptions): Promise<Shop> {
  const backend = await startBackendUnlessHosted(options);
  const server = await startLocalServer({
    projectRoot: options.projectRoot,
    port: options.port,
    mounts: backend?.mounts,
    distDir: options.distDir,
    schedules: true,
    siteBuild: options.siteBuild,
    // A database in memory takes its published reviews with it: the next start's dist/ must not show them.
    keepRebuildsInDist: options.data !== 'memory',
  });
  pointFunctionsAtBackend(server.url, backend);
  return {
    server,
    backend,
    close: async () => {
      await server.close();
      await backend?.close();
    },
  };
}

/** What `npm start` and `npm run dev` print: where the shop is, and the local API's URL and keys as `supabase start` does. */
export function printShop(projectRoot: string, url: string, backend: EmbeddedBackend | undefined, data: DataLocation): void {
  console.log(`\n  Shop running at ${url}\n`);
  if (!backend) return void console.log(`  Using hosted Supabase at ${process.env.PUBLIC_SUPABASE_URL}\n`);
  console.log('  Embedded backend (local stand-in for Supabase):');
  console.log(`    API URL:          ${url}`);
  console.log(`    REST:             ${url}/rest/v1`);
  console.log(`    Auth:             ${url}/auth/v1 (local sign-in page stands in for Google)`);
  console.log(`    Data:             ${data !== 'memory' && 'dir' in data ? relative(projectRoot, data.dir) : 'in memory (discarded on exit)'}`);
  console.log(`    anon key:         ${backend.anonKey}`);
  console.log(`    service_role key: ${backend.serviceRoleKey}\n`);
}
