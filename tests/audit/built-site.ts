/** The built site in dist/: every HTML page with the path it is served at. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { kindOfPath, landingSlugs, type PageKind } from './routes';

export const DIST_DIR = process.env.LOCAL_DIST_DIR ?? 'dist';

export interface BuiltPage {
  /** `/about` for dist/about.html, `/` for index.html, `/404` for 404.html. */
  path: string;
  file: string;
  kind: PageKind;
  html: string;
}

function htmlFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((entry) => {
      const path = join(dir, entry);
      return statSync(path).isDirectory() ? htmlFiles(path) : path.endsWith('.html') ? [path] : [];
    });
}

export function pathOfFile(distDir: string, file: string): string {
  const route = `/${relative(distDir, file).split(sep).join('/')}`.replace(/\.html$/, '').replace(/(^|\/)index$/, '');
  return route === '' ? '/' : route;
}

export function builtPages(distDir = DIST_DIR, projectRoot = process.cwd()): BuiltPage[] {
  const landing = new Set(landingSlugs(projectRoot));
  return htmlFiles(distDir).map((file) => {
    const path = pathOfFile(distDir, file);
    return { path, file, kind: kindOfPath(path, landing), html: readFileSync(file, 'utf8') };
  });
}

/** The origin the build wrote into absolute URLs (SITE_URL): read from the home page's canonical link. */
export function builtSiteOrigin(distDir = DIST_DIR): string | undefined {
  const html = readFileSync(join(distDir, 'index.html'), 'utf8');
  const href = html.match(/<link\b[^>]*rel=["']canonical["'][^>]*href=["']([^"']+)["']/i)?.[1];
  return href ? new URL(href).origin : undefined;
}
