/**
 * The site's own address, as pages, the sitemap and feeds state it: SITE_URL, else the URL Netlify sets on every
 * build, else the local server on the port it serves (PORT, 4321 by default), so a shop started on another port
 * never lists http://localhost:4321/… in its sitemap.
 */
export const siteUrl = (env: Record<string, string | undefined>): string => env.SITE_URL || env.URL || `http://localhost:${env.PORT || 4321}`;
