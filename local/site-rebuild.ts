/**
 * The local server's stand-in for a Netlify build hook: rebuilds the site with the database as it is now, so a
 * published review reaches its pages. One build at a time; presses while one runs are coalesced into one more
 * build after it (it must start after the last press, to read what that press published). Each build goes into a
 * fresh folder, and only a finished build is swapped in, by the server's one reference to the site it serves, so
 * no request meets a half-built site. dist/ on disk is then replaced by a copy, for the next start (unless the
 * database lives in memory).
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeBuildStamp } from './build-if-needed';

export interface SiteRebuilderOptions {
  projectRoot: string;
  /** The folder dist/ is (copied over once a build is swapped in). */
  dist: string;
  /** The server's origin, which the build reads the published reviews from. */
  origin: () => string;
  /** Serves the finished build in `dir` from now on. */
  swapIn: (dir: string) => Promise<void>;
  /** Copy each build over dist/ for the next start (not when the database lives in memory: its reviews go with it). */
  keepInDist?: boolean;
  /** The build itself (a test passes a fast one): resolves once `outDir` holds the whole site. */
  build?: (outDir: string, env: NodeJS.ProcessEnv) => Promise<void>;
}

/** `astro build` into `outDir`, in a child process: the server keeps answering (the build reads from it). */
function astroBuild(projectRoot: string) {
  return (outDir: string, env: NodeJS.ProcessEnv) =>
    new Promise<void>((resolve, reject) => {
      let output = '';
      const child = spawn(join(projectRoot, 'node_modules', '.bin', 'astro'), ['build', '--outDir', outDir], { cwd: projectRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
      const keep = (chunk: Buffer) => {
        output = (output + chunk.toString()).slice(-4000);
      };
      child.stdout.on('data', keep);
      child.stderr.on('data', keep);
      child.on('error', reject);
      child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`astro build exited with ${code}:\n${output}`))));
    });
}

export interface SiteRebuilder {
  /** Resolves once a build that started after this call is served. */
  rebuild(): Promise<void>;
  /** How many builds have been swapped in. */
  readonly builds: number;
}

export function createSiteRebuilder(options: SiteRebuilderOptions): SiteRebuilder {
  const { projectRoot, dist, origin, swapIn, keepInDist = true, build = astroBuild(projectRoot) } = options;
  // Beside dist/, so a test serving a folder of its own keeps its builds there too.
  const folder = join(dirname(dist), '.site-builds');
  let running: Promise<void> | null = null;
  let queued: Promise<void> | null = null;
  let builds = 0;
  let serving: string | null = null;

  async function once(): Promise<void> {
    mkdirSync(folder, { recursive: true });
    const outDir = join(folder, `build-${Date.now()}`);
    const started = Date.now();
    try {
      await build(outDir, { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', LOCAL_REVIEWS_ORIGIN: origin() });
      writeBuildStamp(outDir);
    } catch (error) {
      rmSync(outDir, { recursive: true, force: true });
      throw error;
    }
    await swapIn(outDir);
    builds += 1;
    const previous = serving;
    serving = outDir;
    console.log(`[site] rebuilt in ${((Date.now() - started) / 1000).toFixed(1)} s and swapped in`);
    // A request already reading the previous build finishes it; then it goes.
    if (previous) setTimeout(() => rmSync(previous, { recursive: true, force: true }), 60_000).unref();
    // dist/ for the next start: a copy put in place by renames, never a half-written folder.
    if (!keepInDist) return;
    const next = `${dist}.next`;
    rmSync(next, { recursive: true, force: true });
    cpSync(outDir, next, { recursive: true });
    if (existsSync(dist)) renameSync(dist, `${dist}.previous`);
    renameSync(next, dist);
    rmSync(`${dist}.previous`, { recursive: true, force: true });
  }

  const start = () => {
    running = once().finally(() => {
      running = null;
    });
    return running;
  };

  return {
    get builds() {
      return builds;
    },
    rebuild() {
      if (queued) return queued;
      if (!running) return start();
      queued = running
        .catch(() => {})
        .then(() => {
          queued = null;
          return start();
        });
      return queued;
    },
  };
}
