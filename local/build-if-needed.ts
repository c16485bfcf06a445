/** Builds the site when its output folder (dist/) is missing or older than any source the build reads. */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const SOURCES = ['src', 'content', 'public', 'astro.config.mjs', 'package-lock.json', 'tsconfig.json'];
const STAMP = '.build-stamp';

function newestMtime(path: string): number {
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  return readdirSync(path).reduce((max, entry) => Math.max(max, newestMtime(join(path, entry))), info.mtimeMs);
}

export interface BuildOptions {
  /** Output folder, relative to the project (another build, such as the browser tests' one with a GA4 ID). */
  outDir?: string;
  /** Extra environment for the build, such as PUBLIC_GA4_ID. */
  env?: Record<string, string>;
  /** Keep the build's output out of the log (a failure still reports it). */
  quiet?: boolean;
}

export function buildIfNeeded(projectRoot: string, { outDir = 'dist', env = {}, quiet = false }: BuildOptions = {}): void {
  const stamp = join(projectRoot, outDir, STAMP);
  const newestSource = Math.max(
    ...SOURCES.map((s) => join(projectRoot, s))
      .filter(existsSync)
      .map(newestMtime),
  );
  if (existsSync(stamp) && statSync(stamp).mtimeMs >= newestSource) return;
  console.log(`Building the site into ${outDir}/ (sources changed since the last build)…`);
  execFileSync(join(projectRoot, 'node_modules', '.bin', 'astro'), ['build', '--outDir', outDir], {
    cwd: projectRoot,
    stdio: quiet ? 'pipe' : 'inherit',
    env: { ...process.env, ...env, ASTRO_TELEMETRY_DISABLED: '1' },
  });
  writeFileSync(stamp, new Date().toISOString());
}
