/**
 * The embedded backend: PGlite behind the parts of Supabase's HTTP API this project calls.
 * The local server mounts its handlers at /rest/v1/ and /auth/v1/, on the site's own origin.
 */
import type { Mount } from '../server';
import { createAuthHandler } from './auth';
import { openDatabase, type DataLocation, type Database } from './database';
import { LOCAL_ANON_KEY, LOCAL_SERVICE_ROLE_KEY } from './keys';
import { createRestHandler } from './rest';
import { readSchema } from './schema';

export interface EmbeddedBackend {
  db: Database;
  mounts: Mount[];
  anonKey: string;
  serviceRoleKey: string;
  close: () => Promise<void>;
}

export interface EmbeddedBackendOptions {
  data?: DataLocation;
  jwtExpirySeconds?: number;
}

export async function startEmbeddedBackend(options: EmbeddedBackendOptions = {}): Promise<EmbeddedBackend> {
  const db = await openDatabase(options.data);
  const schema = await readSchema(db);
  const rest = createRestHandler(db, schema);
  const auth = createAuthHandler(db, { jwtExpirySeconds: options.jwtExpirySeconds ?? 3600 });
  return {
    db,
    mounts: [
      { prefix: '/rest/v1/', handle: rest },
      { prefix: '/auth/v1/', handle: auth },
      {
        prefix: '/storage/v1/',
        handle: async () => Response.json({ statusCode: '404', error: 'not_supported', message: 'Storage is not supported by the embedded backend; images are served from public/.' }, { status: 404 }),
      },
    ],
    anonKey: LOCAL_ANON_KEY,
    serviceRoleKey: LOCAL_SERVICE_ROLE_KEY,
    close: () => db.close(),
  };
}
