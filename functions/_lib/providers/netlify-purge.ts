/**
 * Netlify's purge API: POST {base}/api/v1/purge with a bearer token and `{ site_id, cache_tags }`; 202
 * `{ "status": "ok" }` when accepted, 4xx `{ "message": … }` when refused (400 bad parameters, 401 a bad token,
 * 404 no such site). Netlify gives each deployed function NETLIFY_PURGE_API_TOKEN and SITE_ID for this.
 */
import { z } from 'zod';
import type { CdnCache } from './cdn-cache';
import { ProviderError } from './errors';
import { type HttpOptions, requestProvider } from './transport';

const NAME = 'netlify-purge';

export interface NetlifyPurgeOptions extends HttpOptions {
  token: string;
  siteId: string;
}

const refusal = z.object({ message: z.string() });

export function createNetlifyPurge(options: NetlifyPurgeOptions): CdnCache {
  const { token, siteId, baseUrl = 'https://api.netlify.com', fetch: fetchImpl = globalThis.fetch, timeoutMs = 5000 } = options;
  return {
    name: NAME,
    async purgeTags(tags) {
      if (tags.length === 0) return;
      const answer = await requestProvider(
        NAME,
        fetchImpl,
        `${baseUrl}/api/v1/purge`,
        {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({ site_id: siteId, cache_tags: tags }),
        },
        timeoutMs,
      );
      if (answer.ok) return;
      const parsed = refusal.safeParse(answer.body);
      const reason = parsed.success ? parsed.data.message : `HTTP ${answer.status}`;
      throw new ProviderError(NAME, answer.status, `Netlify refused to purge ${tags.join(', ')}: ${reason}`, { code: answer.status >= 500 ? 'invalid-response' : 'rejected' });
    },
  };
}
