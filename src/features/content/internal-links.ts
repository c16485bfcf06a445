/**
 * Every internal link in a post must reach a page of the site: a page in src/pages, a landing page, a
 * legal page, a blog post, a product page or a file in public/. A broken one stops the build and shows in
 * the dev server with the file, the line and the nearest path that does exist.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, extname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Loader } from 'astro/loaders';

/** The content folder that lists the pages of each dynamic route in src/pages (one page per file). */
const DYNAMIC_ROUTES: Record<string, string | null> = {
  '/[landing]': 'content/landing',
  '/[legal]': 'content/legal',
  '/blog/[id]': 'content/blog',
  '/store/product/[id]': 'content/books',
  // The original cover files, for the database, emails and payment pages: nothing copy links to.
  '/covers/[file]': null,
};

const PAGE_EXTENSIONS = new Set(['.astro', '.md', '.mdx', '.ts', '.js']);

export interface InternalLink {
  href: string;
  line: number;
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((file) => statSync(join(dir, file)).isFile());
}

/** `/blog/index.astro` → `/blog`, `/robots.txt.ts` → `/robots.txt`, `/[landing].astro` → `/[landing]`. */
function routeOf(pageFile: string): string {
  const route = `/${pageFile.replaceAll('\\', '/')}`.replace(/\.(astro|md|mdx|ts|js)$/, '').replace(/\/index$/, '');
  return route === '' ? '/' : route;
}

/** Every path the built site answers, read from the project's files. */
export function sitePaths(root: string): Set<string> {
  const paths = new Set<string>();
  for (const file of filesUnder(join(root, 'src', 'pages'))) {
    if (!PAGE_EXTENSIONS.has(extname(file)) || file.endsWith('.test.ts')) continue;
    const route = routeOf(file);
    if (!route.includes('[')) {
      paths.add(route);
      continue;
    }
    const folder = DYNAMIC_ROUTES[route];
    if (folder === null) continue;
    if (!folder) throw new Error(`src/pages${route} is a dynamic route the internal-link check does not know: add its content folder to DYNAMIC_ROUTES in src/features/content/internal-links.ts.`);
    const prefix = route.slice(0, route.lastIndexOf('/'));
    for (const entry of filesUnder(join(root, folder))) paths.add(`${prefix}/${basename(entry, extname(entry))}`);
  }
  for (const file of filesUnder(join(root, 'public'))) paths.add(`/${file.replaceAll('\\', '/')}`);
  return paths;
}

/** Blanks code (fenced and inline) so a path shown as code is not taken for a link; lines stay where they are. */
function withoutCode(source: string): string {
  const blank = (text: string) => text.replace(/[^\n]/g, ' ');
  return source.replace(/^(```|~~~)[\s\S]*?^\1/gm, blank).replace(/`[^`\n]+`/g, blank);
}

const LINK_PATTERNS = [
  /\]\(\s*<?([^)\s>]+)>?[^)]*\)/g, // [text](/path "title") and ![alt](/image)
  /^ {0,3}\[[^\]]+\]:\s*<?([^\s>]+)/gm, // [id]: /path
  /\b(?:href|src)=(?:"([^"]*)"|'([^']*)'|\{\s*["'`]([^"'`]*)["'`]\s*\})/g, // <a href="/path">, href={'/path'}
];

/** The links to this site's own paths in an MDX or Markdown source, with their line numbers. */
export function internalLinks(source: string): InternalLink[] {
  const text = withoutCode(source);
  const links: InternalLink[] = [];
  for (const pattern of LINK_PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      const href = match.slice(1).find((group) => group !== undefined) ?? '';
      if (href.startsWith('/') && !href.startsWith('//')) links.push({ href, line: text.slice(0, match.index).split('\n').length });
    }
  }
  return links.sort((a, b) => a.line - b.line);
}

/** `/book/?x=1#top` → `/book`: what the link asks the site for. */
export function linkTarget(href: string): string {
  const path = href.replace(/[?#].*$/, '');
  let decoded = path;
  try {
    decoded = decodeURI(path);
  } catch {
    // A malformed escape is checked as written, and so reported as missing.
  }
  return decoded.length > 1 ? decoded.replace(/\/+$/, '') : decoded;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}

function nearest(target: string, paths: ReadonlySet<string>): string | undefined {
  let best: { path: string; distance: number } | undefined;
  for (const path of paths) {
    const distance = editDistance(target, path);
    if (!best || distance < best.distance) best = { path, distance };
  }
  return best && best.distance <= Math.max(3, target.length / 3) ? best.path : undefined;
}

export interface BrokenLink extends InternalLink {
  file: string;
  /** Where it is, what it asks for, and the nearest path that exists. */
  message: string;
}

export function brokenLinks(file: string, source: string, paths: ReadonlySet<string>): BrokenLink[] {
  return internalLinks(source)
    .filter((link) => !paths.has(linkTarget(link.href)))
    .map((link) => {
      const suggestion = nearest(linkTarget(link.href), paths);
      const expected = suggestion ? `expected a path of this site, such as ${suggestion}` : 'expected a page, landing page, post (/blog/<id>), product (/store/product/<id>) or a file in public/';
      return { ...link, file, message: `${file}:${link.line}: the link ${link.href} goes to no page of the site: ${expected}` };
    });
}

function assertLinks(root: string, filePaths: readonly string[]): void {
  const paths = sitePaths(root);
  const problems = filePaths.flatMap((filePath) => brokenLinks(relative(root, resolve(root, filePath)), readFileSync(resolve(root, filePath), 'utf8'), paths));
  const [first] = problems;
  if (!first) return;
  const error = new Error(`Broken internal ${problems.length === 1 ? 'link' : 'links'}:\n  ${problems.map((p) => p.message).join('\n  ')}`);
  // Astro shows this location (the first broken link) instead of this module's.
  throw Object.assign(error, { loc: { file: resolve(root, first.file), line: first.line, column: 1 } });
}

/**
 * The collection's loader, with every entry's internal links checked: each file as it is loaded (in dev,
 * on every save) and, at the end of each full load, every entry again, since a post breaks when the page
 * it links to goes away.
 */
export function withInternalLinkCheck(loader: Loader): Loader {
  return {
    ...loader,
    async load(context) {
      const root = fileURLToPath(context.config.root);
      await loader.load({
        ...context,
        parseData: async (entry) => {
          if (entry.filePath) assertLinks(root, [entry.filePath]);
          return context.parseData(entry);
        },
      });
      assertLinks(
        root,
        context.store.values().flatMap((entry) => (entry.filePath ? [entry.filePath] : [])),
      );
    },
  };
}
