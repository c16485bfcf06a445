/**
 * Copy still marked as sample: any file under content/ whose frontmatter (Markdown/MDX) or YAML has
 * `sample: true` at its top level. It is a warning: the publisher replaces the copy, or confirms it and
 * removes the marker, before going live.
 */
import type { Dirent } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { parse } from 'yaml';
import type { CheckResult, DoctorContext } from '../types';

const NAME = 'Sample content';

const FRONTMATTER = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/;

/** The top-level mapping of a content file: its frontmatter, or the whole YAML document. */
function metadataOf(path: string, text: string): unknown {
  try {
    if (/\.(md|mdx|markdown)$/i.test(path)) {
      const match = FRONTMATTER.exec(text);
      return match ? parse(match[1]!) : undefined;
    }
    if (/\.ya?ml$/i.test(path)) return parse(text);
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

export async function findSampleContent(rootDir: string): Promise<string[]> {
  const files = (await filesUnder(join(rootDir, 'content'))).filter((path) => /\.(md|mdx|markdown|ya?ml)$/i.test(path));
  const marked: string[] = [];
  for (const path of files) {
    const metadata = metadataOf(path, await readFile(path, 'utf8'));
    if (metadata && typeof metadata === 'object' && (metadata as Record<string, unknown>).sample === true) marked.push(relative(rootDir, path));
  }
  return marked.sort();
}

export async function checkSampleContent(context: DoctorContext): Promise<CheckResult> {
  const marked = await findSampleContent(context.rootDir);
  if (marked.length === 0) return { name: NAME, status: 'pass', detail: 'no file under content/ is marked sample: true' };
  return {
    name: NAME,
    status: 'warn',
    detail: `${marked.length} file${marked.length === 1 ? ' is' : 's are'} still marked sample: true — replace or confirm before going live:\n${marked.map((path) => `  ${path}`).join('\n')}`,
    fix: 'Replace the sample copy with the publisher’s own, or once the publisher has approved it remove the `sample: true` line; commit and deploy.',
  };
}
