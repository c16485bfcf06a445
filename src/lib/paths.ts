import { BACK_OFFICE } from '@/config/constants';

/** A product's page. */
export const productPath = (id: string) => `/store/product/${id}`;

/** An order's status page: its token rides in the fragment, so it never reaches a server log. */
export const orderStatusPath = (token: string) => `${BACK_OFFICE.orderStatusPath}#${token}`;

/** A blog post's page. */
export const postPath = (id: string) => `/blog/${id}`;

/** The page's path as a visitor sees it: `/index.html` → `/`, `/about.html` → `/about`. */
export function publicPath(pathname: string): string {
  const path = pathname
    .replace(/\.html$/, '')
    .replace(/\/index$/, '/')
    .replace(/(.)\/$/, '$1');
  return path === '' ? '/' : path;
}
