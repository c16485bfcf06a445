/**
 * What each built page makes a browser download, measured from dist/: the HTML, the stylesheets it links,
 * and its JavaScript in three parts, each with every module it imports statically:
 * - at start: its `<script src>`, `modulepreload` links and the islands that hydrate on load or idle;
 * - on use: the islands that wait for the visitor (`client:intent`) or to be scrolled to (`client:visible`);
 * - lazy: what any of those can load later by dynamic `import()`.
 * Sizes raw, gzip (level 9) and brotli (quality 11, as a CDN sends static files).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { BuiltPage } from './built-site';
import type { PageKind } from './routes';

export interface Size {
  raw: number;
  gzip: number;
  brotli: number;
}

export interface PageWeight {
  path: string;
  kind: PageKind;
  html: Size;
  css: Size & { files: string[] };
  js: Size & { files: string[] };
  onUseJs: Size & { files: string[] };
  lazyJs: Size & { files: string[] };
}

const sizeCache = new Map<string, Size>();
function sizeOf(file: string): Size {
  let size = sizeCache.get(file);
  if (!size) {
    const bytes = readFileSync(file);
    size = { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length, brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length };
    sizeCache.set(file, size);
  }
  return size;
}

const sum = (sizes: Size[]): Size => sizes.reduce((a, b) => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip, brotli: a.brotli + b.brotli }), { raw: 0, gzip: 0, brotli: 0 });
const attribute = (tag: string, name: string) => tag.match(new RegExp(`\\b${name}=(["'])(.*?)\\1`, 'i'))?.[2];

/** Site-local URLs (`/_astro/x.js`) only; anything on another origin is not part of the build. */
function localPath(url: string | undefined): string | undefined {
  if (!url || /^[a-z]+:|^\/\//i.test(url)) return undefined;
  return url.split(/[?#]/)[0];
}

/** Islands hydrated by the visitor's use (or on scrolling to them), not at start. */
const ON_USE_DIRECTIVES = new Set(['intent', 'visible']);

/** The stylesheets and entry scripts a page's HTML names: those it starts, and those its islands load on use. */
export function pageAssets(html: string): { css: string[]; js: string[]; onUse: string[] } {
  const css = new Set<string>();
  const js = new Set<string>();
  const onUse = new Set<string>();
  for (const [tag] of html.matchAll(/<link\b[^>]*>/gi)) {
    const rel = attribute(tag, 'rel')?.toLowerCase().split(/\s+/) ?? [];
    const href = localPath(attribute(tag, 'href'));
    if (!href) continue;
    if (rel.includes('stylesheet')) css.add(href);
    if (rel.includes('modulepreload') || (rel.includes('preload') && attribute(tag, 'as') === 'script')) js.add(href);
  }
  for (const [tag] of html.matchAll(/<script\b[^>]*>/gi)) {
    const src = localPath(attribute(tag, 'src'));
    if (src) js.add(src);
  }
  for (const [tag] of html.matchAll(/<astro-island\b[^>]*>/gi)) {
    const into = ON_USE_DIRECTIVES.has(attribute(tag, 'client') ?? '') ? onUse : js;
    for (const name of ['component-url', 'renderer-url', 'before-hydration-url']) {
      const url = localPath(attribute(tag, name));
      if (url) into.add(url);
    }
  }
  return { css: [...css], js: [...js], onUse: [...onUse].filter((url) => !js.has(url)) };
}

/** Module specifiers a built chunk imports: static (`from"./x.js"`, `import"./x.js"`) and dynamic (`import(`./x.js`)`). */
export function moduleImports(code: string): { static: string[]; dynamic: string[] } {
  const statics = [...code.matchAll(/(?:\bfrom|\bimport)\s*["']([^"']+\.m?js)["']/g)].map((m) => m[1]!);
  const dynamics = [...code.matchAll(/\bimport\(\s*[`"']([^`"']+\.m?js)[`"']\s*\)/g)].map((m) => m[1]!);
  return { static: statics, dynamic: dynamics };
}

function resolveModule(from: string, specifier: string): string | undefined {
  if (specifier.startsWith('/')) return specifier;
  if (!specifier.startsWith('.')) return undefined;
  return new URL(specifier, `http://site${from}`).pathname;
}

/**
 * The closure of static imports from the start modules, then from the on-use modules (less what starts
 * anyway), and what any of those load lazily (by dynamic import).
 */
function scriptClosure(distDir: string, entries: string[], onUseEntries: string[]): { eager: string[]; onUse: string[]; lazy: string[] } {
  const lazyQueue: string[] = [];
  const visit = (url: string, into: Set<string>, skip: Set<string> = new Set()) => {
    if (into.has(url) || skip.has(url) || !existsSync(join(distDir, url))) return;
    into.add(url);
    const imports = moduleImports(readFileSync(join(distDir, url), 'utf8'));
    for (const spec of imports.static) {
      const next = resolveModule(url, spec);
      if (next) visit(next, into, skip);
    }
    for (const spec of imports.dynamic) {
      const next = resolveModule(url, spec);
      if (next) lazyQueue.push(next);
    }
  };
  const eager = new Set<string>();
  entries.forEach((url) => visit(url, eager));
  const onUse = new Set<string>();
  onUseEntries.forEach((url) => visit(url, onUse, eager));
  const loaded = new Set([...eager, ...onUse]);
  const lazy = new Set<string>();
  while (lazyQueue.length) visit(lazyQueue.shift()!, lazy, loaded);
  return { eager: [...eager].sort(), onUse: [...onUse].sort(), lazy: [...lazy].sort() };
}

/** Names the page refers to that are not in dist/ (a broken build, caught by the budget gate too). */
export function missingAssets(distDir: string, page: Pick<BuiltPage, 'html'>): string[] {
  const { css, js, onUse } = pageAssets(page.html);
  return [...css, ...js, ...onUse].filter((url) => !existsSync(join(distDir, url)));
}

export function measurePage(distDir: string, page: Pick<BuiltPage, 'path' | 'kind' | 'html' | 'file'>): PageWeight {
  const { css, js, onUse } = pageAssets(page.html);
  const closure = scriptClosure(distDir, js, onUse);
  const files = (urls: string[]) => urls.filter((url) => existsSync(join(distDir, url)));
  const cssFiles = files(css);
  return {
    path: page.path,
    kind: page.kind,
    html: sizeOf(page.file),
    css: { ...sum(cssFiles.map((url) => sizeOf(join(distDir, url)))), files: cssFiles },
    js: { ...sum(closure.eager.map((url) => sizeOf(join(distDir, url)))), files: closure.eager },
    onUseJs: { ...sum(closure.onUse.map((url) => sizeOf(join(distDir, url)))), files: closure.onUse },
    lazyJs: { ...sum(closure.lazy.map((url) => sizeOf(join(distDir, url)))), files: closure.lazy },
  };
}
