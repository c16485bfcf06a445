/**
 * The whole shop on one machine: the local server plus, unless a hosted Supabase is configured,
 * the embedded backend on the same origin. Used by `npm start`, the browser tests and the load run.
 */
import { join } from 'node:path';
import { startEmbeddedBackend, type EmbeddedBackend } from './backend';
import { DEFAULT_DATA_DIR, type DataLocation } from './backend/database';
import { startLocalServer, type LocalServer } from './server';

export interface ShopOptions {
  projectRoot: string;
  port: number;
  data?: DataLocation;
  jwtExpirySeconds?: number;
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

export async function startShop(options: ShopOptions): Promise<Shop> {
  const hosted = Boolean(process.env.PUBLIC_SUPABASE_URL);
  const backend = hosted ? undefined : await startEmbeddedBackend({ data: options.data, jwtExpirySeconds: options.jwtExpirySeconds });
  const server = await startLocalServer({ projectRoot: options.projectRoot, port: options.port, mounts: backend?.mounts });
  if (backend) {
    // The functions reach the embedded backend exactly as they would reach hosted Supabase.
    process.env.SUPABASE_URL = server.url;
    process.env.SUPABASE_SERVICE_ROLE_KEY = backend.serviceRoleKey;
  }
  return {
    server,
    backend,
    close: async () => {
      await server.close();
      await backend?.close();
    },
  };
}
