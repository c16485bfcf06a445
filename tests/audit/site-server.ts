/**
 * The site under audit: built with `npm run build`, then served in this process by the same local server
 * as `npm start` (static files, functions, embedded backend) on a free port with an in-memory database.
 */
import { spawnSync } from 'node:child_process';
import { startShop } from '../../local/shop';

export function buildSite(projectRoot = process.cwd()): void {
  const result = spawnSync('npm', ['run', 'build'], { cwd: projectRoot, stdio: 'inherit', env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' } });
  if (result.status !== 0) throw new Error(`npm run build failed (exit ${result.status})`);
}

export interface AuditServer {
  url: string;
  close: () => Promise<void>;
}

/** Port 0: the system picks a free port. Loopback only. */
export async function startAuditServer(projectRoot = process.cwd()): Promise<AuditServer> {
  const shop = await startShop({ projectRoot, port: 0, data: 'memory' });
  return {
    url: shop.server.url,
    close: async () => {
      shop.server.server.closeAllConnections();
      await shop.close();
    },
  };
}
