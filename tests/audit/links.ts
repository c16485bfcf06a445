/**
 * Link check of the running site with linkinator: crawls from / through every internal page, checks each
 * link, image, script and stylesheet it finds, and never fetches anything off this machine — external
 * links are recorded as skipped. Absolute links to the build's own site URL (canonical, Open Graph,
 * structured data, sitemap) are checked against the running server instead.
 */
import { LinkChecker, LinkState, type LinkResult } from 'linkinator';
import { builtSiteOrigin } from './built-site';
import type { SiteRoute } from './routes';

export interface LinkReport {
  checked: number;
  pages: number;
  ok: number;
  broken: Array<{ url: string; status: number | undefined; parent: string | undefined }>;
  /** External URLs, not fetched. */
  skipped: string[];
  seconds: number;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * @param baseUrl the running server, e.g. http://localhost:43123
 * @param siteOrigins origins the build wrote into absolute URLs (SITE_URL), rewritten to the server
 * @param unlinkedPaths pages to check besides what / and the sitemap reach (pages nothing links to)
 */
export async function checkLinks(baseUrl: string, siteOrigins: string[] = [], unlinkedPaths: string[] = []): Promise<LinkReport> {
  const server = new URL(baseUrl);
  const started = Date.now();
  const pages = new Set<string>();
  const options = {
    concurrency: 4,
    timeout: 15_000,
    retryErrors: false,
    urlRewriteExpressions: siteOrigins.filter((origin) => origin !== server.origin).map((origin) => ({ pattern: new RegExp(`^${escapeRegExp(origin)}(?=/|$)`), replacement: server.origin })),
    // Anything not on this server (or on a site origin, rewritten above) is external: never fetched.
    linksToSkip: async (link: string) => {
      try {
        const url = new URL(link);
        if (url.protocol !== 'http:' && url.protocol !== 'https:') return true;
        return url.origin !== server.origin && !siteOrigins.includes(url.origin);
      } catch {
        return true;
      }
    },
  };
  const crawl = async (paths: string[], recurse: boolean, sitemap: boolean) => {
    const checker = new LinkChecker();
    checker.on('pagestart', (url) => pages.add(url));
    return (await checker.check({ ...options, path: paths.map((path) => new URL(path, baseUrl).href), recurse, sitemap })).links;
  };
  // The whole site from / and the sitemap (served at /sitemap.xml, it lists the landing pages the
  // navigation does not link to); then the links on pages neither reaches (checkout, sign-in, profile…).
  const crawled = await crawl(['/'], true, true);
  const seen = new Set(crawled.map((link) => link.url));
  const rest = unlinkedPaths.filter((path) => !seen.has(new URL(path, baseUrl).href));
  const links: LinkResult[] = [...crawled, ...(rest.length ? await crawl(rest, false, false) : [])];
  const broken = links.filter((link) => link.state === LinkState.BROKEN).map((link) => ({ url: link.url, status: link.status, parent: link.parent }));
  const skipped = [...new Set(links.filter((link) => link.state === LinkState.SKIPPED).map((link) => link.url))].sort();
  return {
    checked: links.length,
    pages: pages.size,
    ok: links.filter((link) => link.state === LinkState.OK).length,
    broken,
    skipped,
    seconds: (Date.now() - started) / 1000,
  };
}

/**
 * The whole built site served at `baseUrl`: everything / and the sitemap reach, plus the pages nothing
 * links to (the sitemap lists only indexable ones), but not the routes that answer 404 on purpose.
 */
export function checkSiteLinks(baseUrl: string, distDir: string, routes: SiteRoute[]): Promise<LinkReport> {
  const origin = builtSiteOrigin(distDir);
  const unlinked = routes.filter((route) => !route.status).map((route) => route.path);
  return checkLinks(baseUrl, origin ? [origin] : [], unlinked);
}
