/**
 * Copy marked `sample: true` (standing in for the publisher's own): every build lists it, and a production
 * build refuses to run until each file is replaced or confirmed.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { AstroIntegrationLogger } from 'astro';
import { afterEach, describe, expect, it } from 'vitest';
import { findSampleContent, SAMPLE_CONTENT_FIX, sampleContentCheck, sampleContentRefusal, sampleContentWarning } from '@/features/content/sample-content';

let root = '';
const roots: string[] = [];
function project(files: Record<string, string>): string {
  root = mkdtempSync(join(tmpdir(), 'sample-content-'));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}
afterEach(() => {
  for (const dir of roots.splice(0)) rmSync(dir, { recursive: true, force: true });
  root = '';
});

const FILES = {
  'content/books/a-book.mdx': '---\n# sample: the reviews\nsample: true\nid: a-book\n---\n\nBody.\n',
  'content/site/settings.yaml': 'sample: true\nreturnAddress: [A, B]\n',
  'content/site/about.yaml': 'heading: About\nsample: false\n',
  'content/blog/post.mdx': '---\ntitle: Post\n---\n\nA post that shows `sample: true` in its body is not marked.\n',
  'content/landing/nested/page.yml': 'sample: "true"\n',
  'content/notes.txt': 'sample: true\n',
};

/** Runs the integration's setup hook as Astro would, with a logger that records its warnings. */
async function runHook(rootDir: string, env: Record<string, string>, command = 'build') {
  const warnings: string[] = [];
  const logger = { warn: (message: string) => warnings.push(message) } as unknown as AstroIntegrationLogger;
  const hook = sampleContentCheck(rootDir, env).hooks['astro:config:setup'] as (options: { command: string; logger: AstroIntegrationLogger }) => Promise<void>;
  await hook({ command, logger });
  return warnings;
}

describe('content marked sample: true', () => {
  it('finds the Markdown and YAML files whose own top level says sample: true, and nothing else', async () => {
    expect(await findSampleContent(project(FILES))).toEqual(['content/books/a-book.mdx', 'content/site/settings.yaml']);
  });

  it('every build names each sample file in a warning', async () => {
    const warnings = await runHook(project(FILES), {});
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('2 files are still marked sample: true');
    expect(warnings[0]).toContain('\n  content/books/a-book.mdx\n  content/site/settings.yaml');
    expect(await runHook(root, {}, 'dev')).toEqual([]);
    expect(await runHook(project({ 'content/site/about.yaml': 'heading: About\n' }), { CONTEXT: 'production' })).toEqual([]);
  });

  it('a production build refuses them, naming each file and how to confirm it; a preview or local build goes on', async () => {
    const files = await findSampleContent(project(FILES));
    for (const context of [undefined, 'deploy-preview', 'branch-deploy', 'dev']) expect(sampleContentRefusal(files, { CONTEXT: context })).toBeUndefined();
    const refusal = sampleContentRefusal(files, { CONTEXT: 'production' });
    expect(refusal).toBe(
      `Refusing to build a production deploy: 2 files are still marked sample: true, copy that stands in for the publisher’s own:\n  content/books/a-book.mdx\n  content/site/settings.yaml\n${SAMPLE_CONTENT_FIX}`,
    );
    expect(SAMPLE_CONTENT_FIX).toContain('remove the `sample: true` line');
    await expect(runHook(root, { CONTEXT: 'production' })).rejects.toThrow(refusal!);
    expect(sampleContentRefusal([], { CONTEXT: 'production' })).toBeUndefined();
    expect(sampleContentWarning([])).toBeUndefined();
  });

  it('this shop’s sample copy is marked: the reviews and author, the next title, the about page’s story, the return address', async () => {
    expect(await findSampleContent(process.cwd())).toEqual(
      expect.arrayContaining(['content/books/book-10-reasons.mdx', 'content/books/mass-is-awesome.mdx', 'content/site/about.yaml', 'content/site/settings.yaml']),
    );
  });

  it('a production build of this shop stops before building, with the list', () => {
    const outDir = mkdtempSync(join(tmpdir(), 'sample-build-'));
    try {
      const result = spawnSync('npx', ['astro', 'build', '--outDir', outDir], {
        encoding: 'utf8',
        env: { ...process.env, CONTEXT: 'production', STRIPE_SECRET_KEY: 'sk_test_sample_content_check', ASTRO_TELEMETRY_DISABLED: '1' },
        timeout: 120_000,
      });
      const output = `${result.stdout}\n${result.stderr}`;
      expect(result.status, output).not.toBe(0);
      expect(output).toContain('Refusing to build a production deploy');
      expect(output).toContain('content/books/book-10-reasons.mdx');
      expect(output).toContain('content/books/mass-is-awesome.mdx');
      expect(output).toContain('content/site/settings.yaml');
      expect(output).toContain('remove the `sample: true` line');
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
  }, 150_000);
});
