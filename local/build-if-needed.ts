/** Builds the site when dist/ is missing or older than any source the build reads. */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const SOURCES = ['src', 'content', 'public', 'astro.config.mjs', 'package-lock.json', 'tsconfig.json'];
const STAMP = join('dist', '.build-stamp');

function newestMtime(path: string): number {
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  return readdirSync(path).reduce((max, entry) => Math.max(max, newestMtime(join(path, entry))), info.mtimeMs);
}

export function buildIfNeeded(projectRoot: string): void {
  const stamp = join(projectRoot, STAMP);
  const newestSource = Math.max(...SOURCES.map((s) => join(projectRoot, s)).filter(existsSync).map(newestMtime));
  if (existsSync(stamp) && statSync(stamp).mtimeMs >= newestSource) return;
  console.log('Building the site (sources changed since the last build)…');
  execFileSync(join(projectRoot, 'node_modules', '.bin', 'astro'), ['build'], {
    cwd: projectRoot,
    stdio: 'inherit',
    env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' },
  });
  writeFileSync(stamp, new Date().toISOString());
}
