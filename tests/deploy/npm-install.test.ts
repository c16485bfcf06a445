/**
 * A newcomer's `npm ci` on an older Node (the project brings its own Node 22) installs without a screenful of
 * EBADENGINE warnings, and is not refused. Run with the Node that runs npm outside the project (the system's),
 * in a copy of the manifest and lockfile, as a dry run that installs nothing.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';

// Without the project's node_modules/.bin on the PATH, `npm` runs on the system's Node, as a newcomer's does.
const PATH = (process.env.PATH ?? '')
  .split(delimiter)
  .filter((dir) => !dir.includes('node_modules'))
  .join(delimiter);
const systemNodeMajor = (() => {
  try {
    return Number(execFileSync('node', ['-p', 'process.versions.node.split(".")[0]'], { env: { ...process.env, PATH }, encoding: 'utf8' }).trim());
  } catch {
    return null;
  }
})();

describe('npm ci for a newcomer', () => {
  it.runIf(systemNodeMajor !== null && systemNodeMajor < 22)(
    'on an older Node: no EBADENGINE warning, and the install is not refused',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'npm-ci-'));
      try {
        for (const file of ['package.json', 'package-lock.json', '.npmrc']) if (existsSync(file)) copyFileSync(file, join(dir, file));
        const run = spawnSync('npm', ['ci', '--dry-run', '--ignore-scripts', '--no-audit', '--no-fund', '--offline'], { cwd: dir, env: { ...process.env, PATH }, encoding: 'utf8' });
        expect(run.status, run.stderr).toBe(0);
        expect(`${run.stdout}${run.stderr}`).not.toContain('EBADENGINE');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    300_000,
  );
});
