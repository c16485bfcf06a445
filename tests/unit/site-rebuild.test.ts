/**
 * The local server's rebuild after a review is published: one build at a time, a press joining the running build
 * while it has not read the reviews, later presses during a build coalesced into one more build after it, only a
 * finished build swapped in, and dist/ replaced by it for the next start; a failed build changes nothing served.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSiteRebuilder } from '../../local/site-rebuild';

function setUp({ readsReviewsHere = true } = {}) {
  const projectRoot = mkdtempSync(join(tmpdir(), 'rebuild-'));
  const dist = join(projectRoot, 'dist');
  mkdirSync(dist);
  writeFileSync(join(dist, 'index.html'), 'old');
  // Served as built for another address than the server's own: a rebuild makes the same site.
  writeFileSync(join(dist, '.build-stamp'), '2026-11-28T00:00:00.000Z\nhttp://localhost:4321\n');
  const served: string[] = [];
  const releases: Array<() => void> = [];
  let started = 0;
  let fail = false;
  const names: string[] = [];
  const rebuilder = createSiteRebuilder({
    projectRoot,
    dist,
    readsReviewsHere,
    origin: () => 'http://localhost:1',
    swapIn: async (dir) => {
      // Only a whole build is ever swapped in.
      expect(readFileSync(join(dir, 'index.html'), 'utf8')).toMatch(/^build \d+$/);
      served.push(dir);
    },
    build: async (outDir, env) => {
      started += 1;
      const n = started;
      expect(env.LOCAL_REVIEWS_ORIGIN).toBe('http://localhost:1');
      expect(env.SITE_URL).toBe('http://localhost:4321');
      names.push(env.LOCAL_SITE_BUILD!);
      mkdirSync(outDir, { recursive: true });
      await new Promise<void>((resolve) => releases.push(resolve));
      if (fail) throw new Error('astro build failed');
      writeFileSync(join(outDir, 'index.html'), `build ${n}`);
    },
  });
  const finishBuild = async () => {
    await expect.poll(() => releases.length).toBeGreaterThan(0);
    releases.shift()!();
  };
  /** The running build reads the published reviews, as the server reports it. */
  const readReviews = () => rebuilder.reviewsRead(names.at(-1)!);
  return { rebuilder, dist, served, finishBuild, readReviews, started: () => started, failNext: (value: boolean) => (fail = value) };
}

describe('the local site rebuild', () => {
  it('coalesces presses during a build that has read the reviews into one more build, which starts after the build running', async () => {
    const { rebuilder, dist, served, finishBuild, started, readReviews } = setUp();
    const first = rebuilder.rebuild();
    readReviews();
    const presses = [rebuilder.rebuild(), rebuilder.rebuild(), rebuilder.rebuild()];
    expect(presses[1]).toBe(presses[0]);
    expect(presses[2]).toBe(presses[0]);
    await finishBuild();
    await first;
    expect(served).toHaveLength(1);
    expect(readFileSync(join(dist, 'index.html'), 'utf8')).toBe('build 1');
    await finishBuild();
    await Promise.all(presses);
    expect(started()).toBe(2);
    expect(served).toHaveLength(2);
    expect(rebuilder.builds).toBe(2);
    expect(readFileSync(join(dist, 'index.html'), 'utf8')).toBe('build 2');
    expect(readFileSync(join(dist, '.build-stamp'), 'utf8')).toMatch(/\nhttp:\/\/localhost:4321\n$/);
  });

  it('a press before the running build has read the reviews joins it; one after, or with a build reading elsewhere, waits for the next', async () => {
    const { rebuilder, finishBuild, started, readReviews } = setUp();
    const first = rebuilder.rebuild();
    expect(rebuilder.rebuild()).toBe(first);
    readReviews();
    const next = rebuilder.rebuild();
    expect(next).not.toBe(first);
    await finishBuild();
    await first;
    await finishBuild();
    await next;
    expect(started()).toBe(2);

    const elsewhere = setUp({ readsReviewsHere: false });
    const building = elsewhere.rebuilder.rebuild();
    const after = elsewhere.rebuilder.rebuild();
    expect(after).not.toBe(building);
    await elsewhere.finishBuild();
    await elsewhere.finishBuild();
    await Promise.all([building, after]);
    expect(elsewhere.started()).toBe(2);
  });

  it('a failed build swaps nothing in and leaves dist/ as it was', async () => {
    const { rebuilder, dist, served, finishBuild, failNext } = setUp();
    failNext(true);
    const press = rebuilder.rebuild();
    await finishBuild();
    await expect(press).rejects.toThrow('astro build failed');
    expect(served).toEqual([]);
    expect(readFileSync(join(dist, 'index.html'), 'utf8')).toBe('old');
    // The next press builds again.
    failNext(false);
    const next = rebuilder.rebuild();
    await finishBuild();
    await next;
    expect(served).toHaveLength(1);
  });
});
