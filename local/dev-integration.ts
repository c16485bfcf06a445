/**
 * Puts the shop's server side in front of Astro's dev server, on the same origin: the functions and the
 * embedded backend (through the same handler `npm start` uses), then the redirects of netlify.toml, then
 * Astro's own pages with hot reload.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AstroIntegration } from 'astro';
import { localRequestUrl, refuseRequestTarget } from './host-check';
import { decideRedirect, type NetlifyConfig } from './netlify-config';
import type { DynamicHandler } from './server';

/** Marks the dev server's request to itself that asks whether Astro has a page at a path. */
const PROBE_HEADER = 'x-local-dev-probe';

async function astroHasPage(origin: string, path: string): Promise<boolean> {
  const response = await fetch(new URL(path, origin), { headers: { [PROBE_HEADER]: '1' }, redirect: 'manual' });
  await response.body?.cancel();
  return response.status !== 404;
}

/** Serves `to` in place of the request with the rule's status; a missing `to` stays Astro's 404. */
function rewrite(req: IncomingMessage, res: ServerResponse, to: string, status: number): void {
  req.url = to;
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  res.writeHead = ((astroStatus: number, ...rest: unknown[]) => writeHead(astroStatus === 200 ? status : astroStatus, ...rest)) as ServerResponse['writeHead'];
}

async function handle(req: IncomingMessage, res: ServerResponse, dynamic: Promise<DynamicHandler>, netlify: NetlifyConfig): Promise<boolean> {
  const origin = `http://${req.headers.host ?? 'localhost'}`;
  // Before the functions, the backend and Astro's pages, as on `npm start` and Netlify's edge.
  const url = localRequestUrl(req.url, origin);
  if (!url) {
    refuseRequestTarget(res);
    return true;
  }
  if (await (await dynamic)(req, res, origin)) return true;
  if (req.method !== 'GET' || req.headers[PROBE_HEADER]) return false;
  const decision = await decideRedirect(netlify, url, (path) => astroHasPage(origin, path));
  if (decision.kind === 'redirect') {
    res.writeHead(decision.status, { location: decision.location });
    res.end();
    return true;
  }
  if (decision.kind === 'rewrite') rewrite(req, res, decision.to, decision.status);
  return false;
}

/** `dynamic` may still be starting (the database): requests wait for it. */
export function shopOnDevServer(options: { dynamic: Promise<DynamicHandler>; netlify: NetlifyConfig }): AstroIntegration {
  return {
    name: 'shop-on-dev-server',
    hooks: {
      'astro:server:setup': ({ server }) => {
        server.middlewares.use((req, res, next) => {
          handle(req, res, options.dynamic, options.netlify).then(
            (answered) => answered || next(),
            (error: unknown) => next(error),
          );
        });
      },
    },
  };
}
