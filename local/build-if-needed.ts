/**
 * Builds the site when its output folder (dist/) is missing, older than any source the build reads, or built for
 * another address (the pages and the sitemap carry the site's address, which locally follows PORT).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { siteUrl } from '../src/config/site-url';

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
  const site = siteUrl({ ...process.env, ...env });
  if (existsSync(stamp) && statSync(stamp).mtimeMs >= newestSource && builtFor(readFileSync(stamp, 'utf8')) === site) return;
  console.log(`Building the site into ${outDir}/ for ${site} (sources or the address changed since the last build)…`);
  execFileSync(join(projectRoot, 'node_modules', '.bin', 'astro'), ['build', '--outDir', outDir], {
    cwd: projectRoot,
    stdio: quiet ? 'pipe' : 'inherit',
    env: { ...process.env, ...env, ASTRO_TELEMETRY_DISABLED: '1' },
  });
  writeBuildStamp(join(projectRoot, outDir), env);
}

/** Marks a finished build in `dir` (absolute) as built now for the site's address. */
export function writeBuildStamp(dir: string, env: Record<string, string> = {}): void {
  writeFileSync(join(dir, STAMP), `${new Date().toISOString()}\n${siteUrl({ ...process.env, ...env })}\n`);
}

/** The address a build stamp says its build was made for: its second line; `npm run build`'s stamp has none (the default). */
export const builtFor = (stamp: string): string => stamp.split('\n')[1]?.trim() || siteUrl({});
