/**
 * Copy that stands in for the publisher's own: any file under content/ whose frontmatter (Markdown/MDX) or
 * YAML or JSON says `sample: true` at its top level (the sample site's reviews, author, story, return address).
 * Every build lists them; a production build (Netlify's CONTEXT=production) refuses to run until each is
 * replaced with the publisher's own, or confirmed by removing its `sample: true` line. `npm run doctor`
 * warns about the same files.
 */
import type { Dirent } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { AstroIntegration } from 'astro';
import { parse } from 'yaml';

const FRONTMATTER = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/;

/** The top-level mapping of a content file: its frontmatter, or the whole YAML document. */
function metadataOf(path: string, text: string): unknown {
  try {
    if (/\.(md|mdx|markdown)$/i.test(path)) {
      const match = FRONTMATTER.exec(text);
      return match ? parse(match[1]!) : undefined;
    }
    // YAML parses JSON too (content/shipping holds JSON, which the functions' bundler can import).
    if (/\.(ya?ml|json)$/i.test(path)) return parse(text);
  } catch {
    // A file that does not parse is the build's to report; it says nothing about `sample` here.
  }
  return undefined;
}

async function filesUnder(folder: string): Promise<string[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(folder, { withFileTypes: true });
  } catch {
    return [];
  }
  const nested = await Promise.all(entries.map((entry) => (entry.isDirectory() ? filesUnder(join(folder, entry.name)) : Promise.resolve([join(folder, entry.name)]))));
  return nested.flat();
}

/** The files under `<rootDir>/content` marked `sample: true`, as paths from `rootDir` with forward slashes, sorted. */
export async function findSampleContent(rootDir: string): Promise<string[]> {
  const files = (await filesUnder(join(rootDir, 'content'))).filter((path) => /\.(md|mdx|markdown|ya?ml|json)$/i.test(path));
  const marked: string[] = [];
  for (const path of files) {
    const metadata = metadataOf(path, await readFile(path, 'utf8'));
    if (metadata && typeof metadata === 'object' && (metadata as Record<string, unknown>).sample === true) marked.push(relative(rootDir, path).split(sep).join('/'));
  }
  return marked.sort();
}

/** What to do: replace the copy, or confirm it. */
export const SAMPLE_CONTENT_FIX =
  'Replace the sample copy in each file with the publisher’s own or, once the publisher has approved it as it is, confirm it: remove the `sample: true` line. Then commit and deploy.';

const listed = (files: readonly string[]) => files.map((file) => `  ${file}`).join('\n');
const count = (files: readonly string[]) => `${files.length} file${files.length === 1 ? ' is' : 's are'}`;

/** The build's warning: which files are still sample copy. */
export function sampleContentWarning(files: readonly string[]): string | undefined {
  if (files.length === 0) return undefined;
  return `${count(files)} still marked sample: true (copy standing in for the publisher’s own); a production build refuses them:\n${listed(files)}`;
}

/** Why a production build stops, or undefined when it may go on (not production, or nothing is sample). */
export function sampleContentRefusal(files: readonly string[], env: Readonly<Record<string, string | undefined>>): string | undefined {
  if (env.CONTEXT !== 'production' || files.length === 0) return undefined;
  return `Refusing to build a production deploy: ${count(files)} still marked sample: true, copy that stands in for the publisher’s own:\n${listed(files)}\n${SAMPLE_CONTENT_FIX}`;
}

/** Lists the sample files at the start of every build, and stops a production build while there are any. */
export function sampleContentCheck(rootDir: string = process.cwd(), env: Readonly<Record<string, string | undefined>> = process.env): AstroIntegration {
  return {
    name: 'sample-content',
    hooks: {
      'astro:config:setup': async ({ command, logger }) => {
        // Only a build: the dev server and the tests' Vite config load the same integrations.
        if (command !== 'build') return;
        const files = await findSampleContent(rootDir);
        const refusal = sampleContentRefusal(files, env);
        if (refusal) throw new Error(refusal);
        const warning = sampleContentWarning(files);
        if (warning) logger.warn(warning);
      },
    },
  };
}
