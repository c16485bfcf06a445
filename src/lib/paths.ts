/** The page's path as a visitor sees it: `/index.html` → `/`, `/about.html` → `/about`. */
export function publicPath(pathname: string): string {
  const path = pathname.replace(/\.html$/, '').replace(/\/index$/, '/').replace(/(.)\/$/, '$1');
  return path === '' ? '/' : path;
}
