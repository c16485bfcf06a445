/**
 * What each built page makes a browser download, measured from dist/: the HTML, the stylesheets it links,
 * and the JavaScript it starts (its `<script src>`, `modulepreload` links and the component-url /
 * renderer-url of its astro-island elements) plus every module those import statically. Modules loaded
 * later by dynamic `import()` are counted apart as "lazy". Sizes raw and gzip (level 9).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { BuiltPage } from './built-site';
import type { PageKind } from './routes';

export interface Size {
  raw: number;
  gzip: number;
}

export interface PageWeight {
  path: string;
  kind: PageKind;
  html: Size;
  css: Size & { files: string[] };
  js: Size & { files: string[] };
  lazyJs: Size & { files: string[] };
}

const sizeCache = new Map<string, Size>();
function sizeOf(file: string): Size {
  let size = sizeCache.get(file);
  if (!size) {
    const bytes = readFileSync(file);
    size = { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
    sizeCache.set(file, size);
  }
  return size;
}

const sum = (sizes: Size[]): Size => sizes.reduce((a, b) => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip }), { raw: 0, gzip: 0 });
const attribute = (tag: string, name: string) => tag.match(new RegExp(`\\b${name}=(["'])(.*?)\\1`, 'i'))?.[2];

/** Site-local URLs (`/_astro/x.js`) only; anything on another origin is not part of the build. */
function localPath(url: string | undefined): string | undefined {
  if (!url || /^[a-z]+:|^\/\//i.test(url)) return undefined;
  return url.split(/[?#]/)[0];
}

/** The stylesheets and entry scripts a page's HTML names. */
export function pageAssets(html: string): { css: string[]; js: string[] } {
  const css = new Set<string>();
  const js = new Set<string>();
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
    for (const name of ['component-url', 'renderer-url', 'before-hydration-url']) {
      const url = localPath(attribute(tag, name));
      if (url) js.add(url);
    }
  }
  return { css: [...css], js: [...js] };
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

/** The closure of static imports from the entry modules, and what those load lazily (by dynamic import). */
function scriptClosure(distDir: string, entries: string[]): { eager: string[]; lazy: string[] } {
  const lazyQueue: string[] = [];
  const visit = (url: string, into: Set<string>) => {
    if (into.has(url) || !existsSync(join(distDir, url))) return;
    into.add(url);
    const imports = moduleImports(readFileSync(join(distDir, url), 'utf8'));
    for (const spec of imports.static) {
      const next = resolveModule(url, spec);
      if (next) visit(next, into);
    }
    for (const spec of imports.dynamic) {
      const next = resolveModule(url, spec);
      if (next) lazyQueue.push(next);
    }
  };
  const eager = new Set<string>();
  entries.forEach((url) => visit(url, eager));
  const lazy = new Set<string>();
  while (lazyQueue.length) {
    const url = lazyQueue.shift()!;
    if (!eager.has(url)) visit(url, lazy);
  }
  return { eager: [...eager].sort(), lazy: [...lazy].filter((url) => !eager.has(url)).sort() };
}

/** Names the page refers to that are not in dist/ (a broken build, caught by the budget gate too). */
export function missingAssets(distDir: string, page: Pick<BuiltPage, 'html'>): string[] {
  const { css, js } = pageAssets(page.html);
  return [...css, ...js].filter((url) => !existsSync(join(distDir, url)));
}

export function measurePage(distDir: string, page: Pick<BuiltPage, 'path' | 'kind' | 'html' | 'file'>): PageWeight {
  const { css, js } = pageAssets(page.html);
  const closure = scriptClosure(distDir, js);
  const files = (urls: string[]) => urls.filter((url) => existsSync(join(distDir, url)));
  const cssFiles = files(css);
  return {
    path: page.path,
    kind: page.kind,
    html: sizeOf(page.file),
    css: { ...sum(cssFiles.map((url) => sizeOf(join(distDir, url)))), files: cssFiles },
    js: { ...sum(closure.eager.map((url) => sizeOf(join(distDir, url)))), files: closure.eager },
    lazyJs: { ...sum(closure.lazy.map((url) => sizeOf(join(distDir, url)))), files: closure.lazy },
  };
}
