import type { APIRoute } from 'astro';
import { DISALLOWED_FOR_CRAWLERS } from '@/config/search';

/** Everything public is crawlable; flow pages that carry no content for search are excluded. */
export const GET: APIRoute = ({ site }) => {
  const sitemap = new URL('/sitemap.xml', site).href;
  const body = ['User-agent: *', 'Allow: /', ...DISALLOWED_FOR_CRAWLERS.map((path) => `Disallow: ${path}`), '', `Sitemap: ${sitemap}`, ''].join('\n');
  return new Response(body, { headers: { 'content-type': 'text/plain; charset=utf-8' } });
};
