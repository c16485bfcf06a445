/**
 * Rebuilding the static site, so a published review reaches its pages. The real adapter is a Netlify build hook
 * (NETLIFY_BUILD_HOOK_URL): POST to it with an empty JSON body, and Netlify answers 200 and queues a deploy (a
 * build already waiting takes the new one's place). On the local server, the server rebuilds dist/ itself
 * (local/site-rebuild.ts), found through the process as the local CDN cache is.
 */
import { ProviderError } from './errors';
import { localRegistry } from './local-registry';
import { type HttpOptions, requestProvider } from './transport';

export interface SiteBuilds {
  /** What the publisher is told the rebuild is. */
  name: 'netlify-build-hook' | 'local';
  /** Asks for a rebuild with the database as it is now; resolves once it is asked for (Netlify) or done (local). */
  rebuild(reason: string): Promise<void>;
}

const NAME = 'netlify-build-hook';

export function createNetlifyBuildHook(options: HttpOptions & { hookUrl: string }): SiteBuilds {
  const { hookUrl, fetch: fetchImpl = globalThis.fetch, timeoutMs = 10_000 } = options;
  return {
    name: NAME,
    async rebuild(reason) {
      const url = new URL(hookUrl);
      // Netlify shows the title in the deploy list, so the publisher can see why the site was built.
      url.searchParams.set('trigger_title', reason.slice(0, 100));
      const answer = await requestProvider(NAME, fetchImpl, url.toString(), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }, timeoutMs);
      if (answer.ok) return;
      throw new ProviderError(NAME, answer.status, `Netlify refused the build hook: HTTP ${answer.status}`, { code: answer.status >= 500 ? 'invalid-response' : 'rejected' });
    },
  };
}

type Rebuild = () => Promise<void>;

/** The local server's rebuilder, found through the process so any copy of this module reaches it. */
const rebuilders = localRegistry<Rebuild>('shop.local-site-rebuilders');

/** The local server registers its rebuilder here; the returned function unregisters it. */
export const registerLocalSiteRebuild = rebuilders.register;

/** Rebuilds the site of every local server running in this process (none outside one: nothing to rebuild). */
export const localSiteBuilds: SiteBuilds = {
  name: 'local',
  async rebuild() {
    await Promise.all([...rebuilders.members()].map((rebuild) => rebuild()));
  },
};
