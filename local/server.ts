/**
 * The local server: the built site from dist/, every function in functions/ at its /api/ path, the
 * redirects and headers of netlify.toml, and any extra mounts (the embedded backend plugs in here).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { join } from 'node:path';
import { chooseEncoding, compressedFile } from './compression';
import { loadFunctions, RateLimiter } from './functions';
import { findRedirect, headersFor, readNetlifyConfig } from './netlify-config';
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
}

export interface LocalServer {
  url: string;
  server: Server;
  close: () => Promise<void>;
}

function toWebRequest(req: IncomingMessage, origin: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) value.forEach((v) => headers.append(name, v));
    else if (value !== undefined) headers.set(name, value);
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  return new Request(new URL(req.url ?? '/', origin), {
    method: req.method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream) : undefined,
    duplex: 'half',
  } as RequestInit);
}

async function sendWebResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers['set-cookie'] = cookies;
  res.writeHead(response.status, headers);
  res.end(Buffer.from(await response.arrayBuffer()));
}

export async function startLocalServer(options: LocalServerOptions): Promise<LocalServer> {
  const { projectRoot, port, host = '127.0.0.1', mounts = [] } = options;
  // LOCAL_DIST_DIR serves another build output (parallel work on one checkout).
  const dist = process.env.LOCAL_DIST_DIR ? join(projectRoot, process.env.LOCAL_DIST_DIR) : join(projectRoot, 'dist');
  const netlify = readNetlifyConfig(join(projectRoot, 'netlify.toml'));
  const functions = await loadFunctions(join(projectRoot, 'functions'));
  const limiter = new RateLimiter();

  async function serveFile(req: IncomingMessage, res: ServerResponse, file: string, status: number, path: string): Promise<void> {
    const contentType = contentTypeOf(file);
    const headers = { 'content-type': contentType, vary: 'Accept-Encoding', ...headersFor(netlify, path) };
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

  async function route(req: IncomingMessage, res: ServerResponse, origin: string): Promise<void> {
    const url = new URL(req.url ?? '/', origin);
    const path = url.pathname;
    const method = req.method ?? 'GET';

    const mount = mounts.find((m) => path.startsWith(m.prefix));
    if (mount) return sendWebResponse(res, await mount.handle(toWebRequest(req, origin)));

    const fn = functions.find((f) => f.config.path === path);
    if (fn) {
      if (fn.config.method && !fn.config.method.includes(method as 'GET' | 'POST')) {
        return sendWebResponse(res, Response.json({ error: `Use ${fn.config.method.join(' or ')}.` }, { status: 405 }));
      }
      const client = req.socket.remoteAddress ?? 'unknown';
      if (!limiter.allow(`${fn.name}:${client}`, fn.config.rateLimit)) {
        return sendWebResponse(res, Response.json({ error: 'Too many requests. Please wait a minute and try again.' }, { status: 429 }));
      }
      return sendWebResponse(res, await fn.handler(toWebRequest(req, origin)));
    }
    if (path.startsWith('/api/')) {
      return sendWebResponse(res, Response.json({ error: `No function is mounted at ${path}.` }, { status: 404 }));
    }
    if (method !== 'GET' && method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' });
      return void res.end();
    }

    // Netlify serves an existing file before a redirect rule, unless the rule is forced.
    const redirect = findRedirect(netlify, path);
    const file = redirect?.force ? undefined : await resolveStaticFile(dist, path);
    if (file) return serveFile(req, res, file, 200, path);
    if (redirect && redirect.status >= 300 && redirect.status < 400) {
      res.writeHead(redirect.status, { location: redirect.to + url.search, ...headersFor(netlify, path) });
      return void res.end();
    }
    if (redirect) {
      const target = await resolveStaticFile(dist, redirect.to);
      if (target) return serveFile(req, res, target, redirect.status, path);
    }
    const notFound = await resolveStaticFile(dist, '/404');
    if (notFound) return serveFile(req, res, notFound, 404, path);
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('Not found. Run `npm run build` first.');
  }

  const server = createServer((req, res) => {
    const origin = `http://${req.headers.host ?? `${host}:${port}`}`;
    route(req, res, origin).catch((error: unknown) => {
      console.error('[local server]', error);
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'The local server failed to answer this request.' }));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  return {
    url: `http://localhost:${actualPort}`,
    server,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
