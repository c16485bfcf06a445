/**
 * The local server's stand-in for a Netlify build hook: rebuilds the site with the database as it is now, so a
 * published review reaches its pages. One build at a time; a press while one runs joins it if the build has not yet
 * read the published reviews (it will read what that press published), and is otherwise coalesced with the others
 * into one more build after it. Each build goes into a
 * fresh folder, and only a finished build is swapped in, by the server's one reference to the site it serves, so
 * no request meets a half-built site. dist/ on disk is then replaced by a copy, for the next start (unless the
 * database lives in memory). A rebuild is made for the address the served build was made for (its build stamp),
 * so it is the same site with the reviews changed, and its social cards are the cached ones.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { builtFor, writeBuildStamp } from './build-if-needed';

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
  /**
   * Whether builds read the published reviews from this server, which then reports each read (`reviewsRead`, by
   * the LOCAL_SITE_BUILD the build was given) as it arrives, before the database answers it. Only then can a press
   * join a running build; a build reading elsewhere (a hosted database) is never joined.
   */
  readsReviewsHere?: boolean;
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
  /** Resolves once a build that reads the published reviews after this call is served. */
  rebuild(): Promise<void>;
  /** The build named `build` (its LOCAL_SITE_BUILD) is reading the published reviews now. */
  reviewsRead(build: string): void;
  /** How many builds have been swapped in. */
  readonly builds: number;
}

export function createSiteRebuilder(options: SiteRebuilderOptions): SiteRebuilder {
  const { projectRoot, dist, origin, swapIn, keepInDist = true, build = astroBuild(projectRoot), readsReviewsHere = false } = options;
  // Beside dist/, so a test serving a folder of its own keeps its builds there too.
  const folder = join(dirname(dist), '.site-builds');
  let running: Promise<void> | null = null;
  let queued: Promise<void> | null = null;
  let builds = 0;
  let serving: string | null = null;
  /** The running build, and whether it has read the published reviews yet. */
  let current: { name: string; read: boolean } | null = null;

  /** The address the build being served was made for, as its stamp says (none without a stamp). */
  const servedAddress = (): Record<string, string> => {
    const stamp = join(serving ?? dist, '.build-stamp');
    return existsSync(stamp) ? { SITE_URL: builtFor(readFileSync(stamp, 'utf8')) } : {};
  };

  async function once(): Promise<void> {
    mkdirSync(folder, { recursive: true });
    const address = servedAddress();
    const name = `build-${Date.now()}`;
    const outDir = join(folder, name);
    const started = Date.now();
    current = { name, read: false };
    try {
      await build(outDir, { ...process.env, ...address, ASTRO_TELEMETRY_DISABLED: '1', LOCAL_REVIEWS_ORIGIN: origin(), LOCAL_SITE_BUILD: name });
      writeBuildStamp(outDir, address);
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
    reviewsRead(name) {
      if (current?.name === name) current.read = true;
    },
    rebuild() {
      if (queued) return queued;
      if (!running) return start();
      // The running build has not read the reviews yet: it reads what this press changed (committed before the call).
      if (readsReviewsHere && current && !current.read) return running;
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
