/**
 * Puts the shop's server side in front of Astro's dev server, on the same origin: the functions and the
 * embedded backend (through the same handler `npm start` uses), then the redirects of netlify.toml and
 * public/_redirects (the same rules and engine as `npm start`), then Astro's own pages with hot reload.
 * Like `netlify dev`, it asks the framework's server over HTTP whether a page exists and for a rewrite's page.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AstroIntegration } from 'astro';
import { localRequestUrl, refuseRequestTarget } from './host-check';
import type { NetlifyRules } from './netlify-rules';
import { type DynamicHandler, sendWebResponse, webHeaders } from './server';

/** Marks the dev server's requests to itself, which go straight to Astro. */
const PROBE_HEADER = 'x-local-dev-probe';

/** Astro's own answer for a path, asked as the visitor asked (uncompressed, so the body passes on as it is). */
function fromAstro(origin: string, path: string, visitor: Headers): Promise<Response> {
  const headers = new Headers({ [PROBE_HEADER]: '1', 'accept-encoding': 'identity' });
  for (const name of ['accept', 'accept-language', 'cookie']) {
    const value = visitor.get(name);
    if (value) headers.set(name, value);
  }
  return fetch(new URL(path, origin), { headers, redirect: 'manual' });
}

async function handle(req: IncomingMessage, res: ServerResponse, dynamic: Promise<DynamicHandler>, netlify: Promise<NetlifyRules>): Promise<boolean> {
  const origin = `http://${req.headers.host ?? 'localhost'}`;
  // Before the functions, the backend and Astro's pages, as on `npm start` and Netlify's edge.
  const url = localRequestUrl(req.url, origin);
  if (!url) {
    refuseRequestTarget(res);
    return true;
  }
  if (await (await dynamic)(req, res, origin)) return true;
  if (req.method !== 'GET' || req.headers[PROBE_HEADER]) return false;
  const headers = webHeaders(req);
  const decision = await (await netlify).decide(url, headers, async (path) => {
    const response = await fromAstro(origin, path, headers);
    await response.body?.cancel();
    return response.status !== 404;
  });
  if (decision.kind === 'redirect') {
    res.writeHead(decision.status, { location: decision.location });
    res.end();
    return true;
  }
  if (decision.kind === 'as-is') return false;
  const page = await fromAstro(origin, decision.kind === 'rewrite' ? decision.to : '/404', headers);
  // The rule's status over Astro's page; a missing page stays Astro's 404.
  const status = decision.kind === 'not-found' ? 404 : page.status === 200 ? decision.status : page.status;
  await sendWebResponse(res, new Response(page.body, { status, headers: page.headers }));
  return true;
}

/** `dynamic` may still be starting (the database): requests wait for it. */
export function shopOnDevServer(options: { dynamic: Promise<DynamicHandler>; netlify: Promise<NetlifyRules> }): AstroIntegration {
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
