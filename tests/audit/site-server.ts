/**
 * The site under audit: built with `npm run build`, then served in this process by the same local server
 * as `npm start` (static files, functions, embedded backend) on a free port with an in-memory database.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startShop } from '../../local/shop';

/** The audit's own copy of the build (git-ignored like every `.dist-*` folder). */
export const AUDIT_DIST_DIR = '.dist-audit';

export function buildSite(projectRoot = process.cwd()): void {
  const result = spawnSync('npm', ['run', 'build'], { cwd: projectRoot, stdio: 'inherit', env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' } });
  if (result.status !== 0) throw new Error(`npm run build failed (exit ${result.status})`);
}

/**
 * Copies dist/ (or LOCAL_DIST_DIR) to the audit's own folder, which the checks read and the server serves: another build
 * into dist/ during the audit (a test run, a colleague) then cannot pull pages out from under it.
 */
export function snapshotBuild(projectRoot = process.cwd()): string {
  const target = join(projectRoot, AUDIT_DIST_DIR);
  rmSync(target, { recursive: true, force: true });
  // LOCAL_DIST_DIR audits another build (one made with --outDir, beside a colleague's dist/).
  const source = process.env.LOCAL_DIST_DIR ?? 'dist';
  cpSync(join(projectRoot, source), target, { recursive: true });
  if (!existsSync(join(target, 'index.html'))) throw new Error(`${source}/ has no index.html: run npm run build`);
  return AUDIT_DIST_DIR;
}

/** Where the audit serves its zero-JavaScript reference page. */
export const ZERO_JS_REFERENCE_PATH = '/zero-js-reference';

/**
 * A copy of a content page with every script taken out, served beside the site: what this machine can reach
 * with the same HTML, CSS, fonts and images and no JavaScript at all, measured in the same run as the rest.
 */
export function writeZeroJsReference(projectRoot: string, distDir: string, fromPath = '/catholic-books-sydney'): string {
  const html = readFileSync(join(projectRoot, distDir, `${fromPath.slice(1)}.html`), 'utf8')
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, '')
    .replace(/<link\b[^>]*rel="modulepreload"[^>]*>/gi, '');
  writeFileSync(join(projectRoot, distDir, `${ZERO_JS_REFERENCE_PATH.slice(1)}.html`), html);
  return ZERO_JS_REFERENCE_PATH;
}

export interface AuditServer {
  url: string;
  close: () => Promise<void>;
}

/** Port 0: the system picks a free port. Loopback only. `distDir` is relative to the project. */
export async function startAuditServer(projectRoot = process.cwd(), distDir?: string): Promise<AuditServer> {
  if (distDir) process.env.LOCAL_DIST_DIR = distDir;
  const shop = await startShop({ projectRoot, port: 0, data: 'memory' });
  return {
    url: shop.server.url,
    close: async () => {
      shop.server.server.closeAllConnections();
      await shop.close();
    },
  };
}
