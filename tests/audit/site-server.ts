/**
 * The site under audit: built with `npm run build`, then served by `npm start`'s own server (static files,
 * functions, embedded backend) in a process of its own, on a free port with an in-memory database.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../../tools/free-port';

/**
 * The audit's own copy of the build (git-ignored like every `.dist-*` folder), one per audit process: an audit
 * finishing removes its copy, which must not be the copy another audit is still serving.
 */
export const AUDIT_DIST_DIR = `.dist-audit-${process.pid}`;

export function buildSite(projectRoot = process.cwd()): void {
  const result = spawnSync('npm', ['run', 'build'], { cwd: projectRoot, stdio: 'inherit', env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' } });
  if (result.status !== 0) throw new Error(`npm run build failed (exit ${result.status})`);
}

/**
 * Copies dist/ (or LOCAL_DIST_DIR) to the audit's own folder, which the checks read and the server serves: another build
 * into dist/ during the audit (a test run, a colleague), or another audit ending, then cannot pull pages out from
 * under it.
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

/**
 * Starts the shop as `npm start` does (`distDir` relative to the project), in a process of its own: the audit's
 * own work (Lighthouse's driver, the reports it reads) then never holds up the server a page is waiting on.
 * Loopback only; resolves once the server answers its health check.
 */
export async function startAuditServer(projectRoot = process.cwd(), distDir?: string): Promise<AuditServer> {
  const port = await freePort();
  const child = spawn(join(projectRoot, 'node_modules', '.bin', 'tsx'), ['local/start.ts', '--no-build'], {
    cwd: projectRoot,
    env: { ...process.env, PORT: String(port), LOCAL_DB: 'memory', ...(distDir && { LOCAL_DIST_DIR: distDir }) },
    // Its request log would drown the audit's own; its errors still show.
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = once(child, 'exit');
  const url = `http://localhost:${port}`;
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the shop's server stopped while starting (exit ${child.exitCode})`);
    const healthy = await fetch(`${url}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) break;
    if (Date.now() > deadline) {
      child.kill();
      throw new Error('the shop did not answer its health check within 3 minutes');
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    url,
    close: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}
