/**
 * The local server: the built site from dist/, every function in functions/ at its `config.path`, the
 * redirects and headers of netlify.toml and dist/'s `_redirects` and `_headers` (matched by Netlify's own
 * parsers and engine, netlify-rules.ts), and any extra mounts (the embedded backend plugs in here).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createReadStream } from 'node:fs';
import { join, resolve } from 'node:path';
import type { FunctionContext } from '../functions/_lib/http';
import { registerLocalCdnCache } from '../functions/_lib/providers/cdn-cache';
import { registerLocalSiteRebuild } from '../functions/_lib/providers/site-builds';
import { LocalCdnCache } from './cdn-cache';
import { chooseEncoding, compressedFile } from './compression';
import { FOREIGN_HOST_MESSAGE, isLocalHost, isOriginForm, localRequestUrl, refuseRequestTarget } from './host-check';
import { loadFunctions, RateLimiter, type ScheduledFunction } from './functions';
import { runScheduled, startSchedules } from './schedules';
import { readNetlifyRules } from './netlify-rules';
import { reviewsSource, SITE_BUILD_HEADER } from '../src/features/reviews/published';
import { createSiteRebuilder, type SiteRebuilderOptions } from './site-rebuild';
import { contentTypeOf, resolveStaticFile } from './static-files';

export interface Mount {
  /** Path prefix such as `/rest/v1/`. */
  prefix: string;
  handle: (request: Request) => Promise<Response>;
}

export interface LocalServerOptions {
  projectRoot: string;
  port: number;
  host?: string;
  mounts?: Mount[];
  /** The build to serve, relative to the project (or absolute); else LOCAL_DIST_DIR, else dist/. */
  distDir?: string;
  /** The Netlify configuration to follow; netlify.toml in the project unless given (a test passes a copy). */
  configPath?: string;
  /** Run the scheduled functions on their schedules (the shop does; a server started for one test does not). */
  schedules?: boolean;
  /** How a published review rebuilds the site (`astro build` unless a test gives a fast one). */
  siteBuild?: SiteRebuilderOptions['build'];
  /** Whether a rebuild also replaces dist/ for the next start (see SiteRebuilderOptions). */
  keepRebuildsInDist?: boolean;
}

/**
 * Answers a request and resolves to true, or resolves to false without touching the response. Carries the
 * scheduled functions, for whoever starts their schedules.
 */
export type DynamicHandler = ((req: IncomingMessage, res: ServerResponse, origin: string) => Promise<boolean>) & {
  scheduled: ScheduledFunction[];
};

export interface LocalServer {
  url: string;
  server: Server;
  close: () => Promise<void>;
}

/**
 * The request body as a web stream. A function that stops reading (a body over its limit) or answers without
 * reading (a refusal) leaves the rest to be drained rather than the socket destroyed, so the client reads
 * the answer instead of a connection reset, as it does from Netlify.
 */
function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  let open = true;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      req.on('data', (chunk: Buffer) => {
        if (!open) return;
        controller.enqueue(chunk);
        if ((controller.desiredSize ?? 0) <= 0) req.pause();
      });
      req.once('end', () => {
        if (open) controller.close();
        open = false;
      });
      req.once('error', (error) => {
        if (open) controller.error(error);
        open = false;
      });
    },
    pull() {
      req.resume();
    },
    cancel() {
      open = false;
      discardRest(req);
    },
  });
}

/** Reads and drops what is left of a request body the answer did not need. */
function discardRest(req: IncomingMessage): void {
  if (req.complete) return;
  req.removeAllListeners('data');
  req.resume();
}

export function webHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) value.forEach((v) => headers.append(name, v));
    else if (value !== undefined) headers.set(name, value);
  }
  return headers;
}

/** `url` is the request's own, on this server's origin (localRequestUrl), never one read from the request line alone. */
function toWebRequest(req: IncomingMessage, url: URL): Request {
  const headers = webHeaders(req);
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  return new Request(url, {
    method: req.method,
    headers,
    body: hasBody ? bodyStream(req) : undefined,
    duplex: 'half',
  } as RequestInit);
}

/** Header that stands in for Netlify's geolocation here (tests set it per page); Netlify itself ignores it. */
export const LOCAL_COUNTRY_HEADER = 'x-local-country';

/**
 * Netlify tells a function (and a redirect's country condition) the visitor's country from their IP; the local
 * server has no geolocation, so the country comes from the x-local-country request header, else
 * LOCAL_VISITOR_COUNTRY, else is unknown.
 */
export function localCountry(headers: Headers): string | undefined {
  return headers.get(LOCAL_COUNTRY_HEADER) || process.env.LOCAL_VISITOR_COUNTRY || undefined;
}

function localFunctionContext(request: Request): FunctionContext {
  return { geo: { country: { code: localCountry(request.headers) } } };
}

export async function sendWebResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers['set-cookie'] = cookies;
  res.writeHead(response.status, headers);
  res.end(Buffer.from(await response.arrayBuffer()));
}

/**
 * Answers what is not a static file: the mounts, every function at its `config.path` (with its method list
 * and rate limit), and a run of a scheduled function on a POST to `/.netlify/functions/<name>`, as
 * `netlify dev` allows (a deploy never does). Resolves to false for anything else, so the caller serves the site.
 * `npm start` serves dist/ after it; `npm run dev` puts Astro's dev server after it.
 */
export async function createDynamicHandler(options: { projectRoot: string; mounts?: Mount[] }): Promise<DynamicHandler> {
  const { projectRoot, mounts = [] } = options;
  const { routed: functions, scheduled } = await loadFunctions(join(projectRoot, 'functions'));
  const limiter = new RateLimiter();
  // Function answers are cached as Netlify's CDN caches them, and purged by tag through the same adapter a deploy
  // uses. LOCAL_CDN_CACHE=off serves every request from the function (the browser tests write to the database
  // directly and read the result at once).
  const cdn = process.env.LOCAL_CDN_CACHE === 'off' ? undefined : new LocalCdnCache();
  if (cdn) registerLocalCdnCache((tags) => cdn.purge(tags));

  const handle = async (req: IncomingMessage, res: ServerResponse, origin: string): Promise<boolean> => {
    const method = req.method ?? 'GET';
    const answer = (response: Response) =>
      sendWebResponse(res, response).then(() => {
        discardRest(req);
        return true;
      });
    const url = localRequestUrl(req.url, origin);
    if (!url) {
      refuseRequestTarget(res);
      discardRest(req);
      return true;
    }
    const path = url.pathname;

    const mount = mounts.find((m) => path.startsWith(m.prefix));
    if (mount) return answer(await mount.handle(toWebRequest(req, url)));

    const fn = functions.find((f) => f.config.path === path);
    if (fn) {
      if (fn.config.method && !fn.config.method.includes(method as 'GET' | 'POST')) {
        return answer(Response.json({ error: `Use ${fn.config.method.join(' or ')}.` }, { status: 405 }));
      }
      const client = req.socket.remoteAddress ?? 'unknown';
      if (!limiter.allow(`${fn.name}:${client}`, fn.config.rateLimit)) {
        return answer(Response.json({ error: 'Too many requests. Please wait a minute and try again.' }, { status: 429 }));
      }
      const call = () => {
        const request = toWebRequest(req, url);
        return fn.handler(request, localFunctionContext(request));
      };
      return answer(cdn && method === 'GET' ? await cdn.answer(`${url.pathname}${url.search}`, call) : await call());
    }
    if (path.startsWith('/api/')) return answer(Response.json({ error: `No function is mounted at ${path}.` }, { status: 404 }));
    const run = path.startsWith(SCHEDULED_PREFIX) && scheduled.find((f) => path === `${SCHEDULED_PREFIX}${f.name}`);
    if (run) {
      if (method !== 'POST') return answer(Response.json({ error: 'Use POST.' }, { status: 405 }));
      return answer(await runScheduled(url.origin, run));
    }
    return false;
  };
  return Object.assign(handle, { scheduled });
}

const SCHEDULED_PREFIX = '/.netlify/functions/';

export async function startLocalServer(options: LocalServerOptions): Promise<LocalServer> {
  const { projectRoot, port, host = '127.0.0.1', mounts = [] } = options;
  // LOCAL_DIST_DIR serves another build output (parallel work on one checkout).
  const dist = resolve(projectRoot, options.distDir ?? process.env.LOCAL_DIST_DIR ?? 'dist');
  const readRules = (publishDir: string) => readNetlifyRules({ configPath: options.configPath ?? join(projectRoot, 'netlify.toml'), publishDir, country: localCountry });
  const [netlify, dynamic] = await Promise.all([readRules(dist), createDynamicHandler({ projectRoot, mounts })]);
  // The site served: a rebuild (site-rebuild.ts) replaces it whole, with its own _redirects and _headers, and each
  // request keeps the one it started with.
  let site = { dir: dist, netlify };

  async function serveFile(req: IncomingMessage, res: ServerResponse, file: string, status: number, path: string, { netlify } = site): Promise<void> {
    const contentType = contentTypeOf(file);
    const headers = { 'content-type': contentType, vary: 'Accept-Encoding', ...netlify.headersFor(path) };
    const encoding = chooseEncoding(req.headers['accept-encoding'], contentType);
    if (encoding) {
      const body = await compressedFile(file, encoding);
      res.writeHead(status, { ...headers, 'content-encoding': encoding, 'content-length': body.length });
      return void res.end(req.method === 'HEAD' ? undefined : body);
    }
    res.writeHead(status, headers);
    if (req.method === 'HEAD') return void res.end();
    createReadStream(file).pipe(res);
  }

  async function notFound(req: IncomingMessage, res: ServerResponse, path: string, served = site): Promise<void> {
    const page = await resolveStaticFile(served.dir, '/404');
    if (page) return serveFile(req, res, page, 404, path, served);
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('Not found. Run `npm run build` first.');
  }

  async function route(req: IncomingMessage, res: ServerResponse, origin: string): Promise<void> {
    const url = localRequestUrl(req.url, origin);
    if (!url) return refuseRequestTarget(res);
    const path = url.pathname;
    const method = req.method ?? 'GET';
    // A rebuild reading the published reviews: noted before the database answers, so a later press waits for the next build.
    const build = req.headers[SITE_BUILD_HEADER];
    if (typeof build === 'string') rebuilder.reviewsRead(build);

    if (await dynamic(req, res, origin)) return;
    if (method !== 'GET' && method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' });
      return void res.end();
    }

    const served = site;
    const { dir, netlify } = served;
    const decision = await netlify.decide(url, webHeaders(req), async (p) => (await resolveStaticFile(dir, p)) !== undefined);
    if (decision.kind === 'not-found') return notFound(req, res, path, served);
    if (decision.kind === 'redirect') {
      res.writeHead(decision.status, { location: decision.location, ...netlify.headersFor(path) });
      return void res.end();
    }
    if (decision.kind === 'rewrite') {
      // A rewrite to another site is a proxy; one to a path may land on a function, as on Netlify.
      if (/^https?:\/\//.test(decision.to)) return sendWebResponse(res, await fetch(decision.to));
      req.url = decision.to;
      if (await dynamic(req, res, origin)) return;
      const file = await resolveStaticFile(dir, new URL(decision.to, origin).pathname);
      return file ? serveFile(req, res, file, decision.status, path, served) : notFound(req, res, path, served);
    }
    const file = await resolveStaticFile(dir, path);
    return file ? serveFile(req, res, file, 200, path, served) : notFound(req, res, path, served);
  }

  let listeningPort = port;
  const server = createServer((req, res) => {
    // Before the Host check and everything else, as Netlify's edge answers 400 to such a request line.
    if (!isOriginForm(req.url)) return refuseRequestTarget(res);
    if (!isLocalHost(req.headers.host, listeningPort)) {
      res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' });
      return void res.end(FOREIGN_HOST_MESSAGE);
    }
    const origin = `http://${req.headers.host}`;
    route(req, res, origin).catch((error: unknown) => {
      console.error('[local server]', error);
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'The local server failed to answer this request.' }));
    });
  });
  // Node closes an idle kept-alive connection after 5 s, and a client that sends on it at that moment gets a reset
  // (a browser or test client idle a few seconds between two requests). Idle connections are kept longer than
  // clients keep theirs, as a hosting edge does.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  listeningPort = actualPort;
  const url = `http://localhost:${actualPort}`;
  const stopSchedules = options.schedules ? startSchedules(url, dynamic.scheduled) : () => {};
  // Publishing a review rebuilds the site here, as a Netlify build hook does in a deploy; the publisher's request
  // does not wait for it.
  const rebuilder = createSiteRebuilder({
    projectRoot,
    dist,
    origin: () => url,
    ...(options.siteBuild && { build: options.siteBuild }),
    keepInDist: options.keepRebuildsInDist ?? true,
    readsReviewsHere: reviewsSource({ ...process.env, LOCAL_REVIEWS_ORIGIN: url })?.local === true,
    swapIn: async (dir) => {
      site = { dir, netlify: await readRules(dir) };
    },
  });
  const unregisterRebuild = registerLocalSiteRebuild(async () => {
    rebuilder.rebuild().catch((error: unknown) => console.error('[site] the rebuild failed; the site served is unchanged:', error));
  });
  return {
    url,
    server,
    close: () => {
      stopSchedules();
      unregisterRebuild();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
