/**
 * The local server's rebuild after a review is published: one build at a time, presses during a build coalesced
 * into one more build after it, only a finished build swapped in, and dist/ replaced by it for the next start; a
 * failed build changes nothing that is served.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSiteRebuilder } from '../../local/site-rebuild';

function setUp() {
  const projectRoot = mkdtempSync(join(tmpdir(), 'rebuild-'));
  const dist = join(projectRoot, 'dist');
  mkdirSync(dist);
  writeFileSync(join(dist, 'index.html'), 'old');
  const served: string[] = [];
  const releases: Array<() => void> = [];
  let started = 0;
  let fail = false;
  const rebuilder = createSiteRebuilder({
    projectRoot,
    dist,
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
  return { rebuilder, dist, served, finishBuild, started: () => started, failNext: (value: boolean) => (fail = value) };
}

describe('the local site rebuild', () => {
  it('coalesces presses during a build into one more build, which starts after the build running', async () => {
    const { rebuilder, dist, served, finishBuild, started } = setUp();
    const first = rebuilder.rebuild();
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
    expect(existsSync(join(dist, '.build-stamp'))).toBe(true);
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
