/** Resolves a URL path to a file in the built site the way Netlify does (pretty URLs, no traversal). */
import { stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';

export const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.webmanifest': 'application/manifest+json',
};

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/** `/about` → about.html, `/` → index.html, `/blog/` → blog/index.html or blog.html; undefined when absent. */
export async function resolveStaticFile(root: string, urlPath: string): Promise<string | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  const relative = normalize(decoded).replace(/^([/\\])+/, '');
  if (relative.startsWith('..') || relative.includes(`${sep}..${sep}`) || decoded.includes('\0')) return undefined;
  const base = join(root, relative);
  const trimmed = base.endsWith(sep) ? base.slice(0, -1) : base;
  const candidates = extname(relative) ? [base] : [join(base, 'index.html'), `${trimmed}.html`, base];
  for (const candidate of candidates) {
    if (candidate.startsWith(root) && (await isFile(candidate))) return candidate;
  }
  return undefined;
}

export function contentTypeOf(file: string): string {
  return CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
}
