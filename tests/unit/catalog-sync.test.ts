/**
 * `npm run catalog:sync`: by hand it writes wherever it is pointed; as the deploy build's step
 * (`--if-configured`) only a production build writes, never a deploy preview or branch deploy.
 */
import { describe, expect, it, vi } from 'vitest';
import { main, type CatalogSyncDeps } from '../../local/catalog-sync';

const HOSTED = { SUPABASE_URL: 'https://project.supabase.co', SUPABASE_SERVICE_ROLE_KEY: 'service-role-key' };

function deps(): CatalogSyncDeps & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    hosted: vi.fn(async () => 'Catalog synced: 1 book written.'),
    local: vi.fn(async () => 'Catalog synced: 1 book written. (local database)'),
    log: (line) => void lines.push(line),
    error: (line) => void lines.push(`error: ${line}`),
  };
}

describe('catalog:sync as the deploy build step (--if-configured)', () => {
  it('writes hosted Supabase in a production build', async () => {
    const d = deps();
    expect(await main(['--if-configured'], { ...HOSTED, CONTEXT: 'production' }, d)).toBe(0);
    expect(d.hosted).toHaveBeenCalledWith(HOSTED.SUPABASE_URL, HOSTED.SUPABASE_SERVICE_ROLE_KEY);
    expect(d.lines).toEqual(['Catalog synced: 1 book written.']);
  });

  it.each(['deploy-preview', 'branch-deploy', 'dev'])('skips a %s build, saying why, even with the service role set', async (context) => {
    const d = deps();
    expect(await main(['--if-configured'], { ...HOSTED, CONTEXT: context }, d)).toBe(0);
    expect(d.hosted).not.toHaveBeenCalled();
    expect(d.local).not.toHaveBeenCalled();
    expect(d.lines).toEqual([`Catalog sync skipped: this is a ${context} build; only a production deploy writes the catalog.`]);
  });

  it('skips outside a Netlify build (no CONTEXT), and writes nothing locally either', async () => {
    const d = deps();
    expect(await main(['--if-configured'], HOSTED, d)).toBe(0);
    expect(d.hosted).not.toHaveBeenCalled();
    expect(d.local).not.toHaveBeenCalled();
    expect(d.lines[0]).toMatch(/^Catalog sync skipped: not a Netlify build/);
  });

  it('skips a production build without the service role, saying what is missing', async () => {
    const d = deps();
    expect(await main(['--if-configured'], { CONTEXT: 'production', SUPABASE_URL: HOSTED.SUPABASE_URL }, d)).toBe(0);
    expect(d.hosted).not.toHaveBeenCalled();
    expect(d.local).not.toHaveBeenCalled();
    expect(d.lines).toEqual(['Catalog sync skipped: SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY are not set for this production build.']);
  });
});

describe('catalog:sync by hand', () => {
  it('writes hosted Supabase when pointed at it, whatever CONTEXT says', async () => {
    for (const env of [HOSTED, { ...HOSTED, CONTEXT: 'deploy-preview' }]) {
      const d = deps();
      expect(await main([], env, d)).toBe(0);
      expect(d.hosted).toHaveBeenCalledTimes(1);
    }
  });

  it('writes the local database when nothing is set', async () => {
    const d = deps();
    expect(await main([], {}, d)).toBe(0);
    expect(d.local).toHaveBeenCalledTimes(1);
    expect(d.lines).toEqual(['Catalog synced: 1 book written. (local database)']);
  });

  it('a failed write prints the reason and exits 1', async () => {
    const d = deps();
    d.hosted = vi.fn(async () => {
      throw new Error('permission denied for function sync_catalog');
    });
    expect(await main(['--if-configured'], { ...HOSTED, CONTEXT: 'production' }, d)).toBe(1);
    expect(d.lines).toEqual(['error: permission denied for function sync_catalog']);
  });
});
