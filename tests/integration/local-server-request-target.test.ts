/**
 * The local server answers only a request target that is a path of its own (origin-form), as Netlify's edge
 * does: an absolute-form target (`GET http://other.example/api/health`) or one starting `//` is a 400 before a
 * page, a function or the backend sees it, so no handler is ever given a URL on another origin.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_SERVICE_ROLE_KEY } from '../../local/backend/keys';
import { shopOnDevServer } from '../../local/dev-integration';
import { REQUEST_TARGET_MESSAGE } from '../../local/host-check';
import { readNetlifyRules } from '../../local/netlify-rules';
import { type LocalServer, startLocalServer } from '../../local/server';
import { useTestShop } from '../helpers/shop';

/**
 * Sends one request as raw bytes (fetch and node:http always send a path, never an absolute-form target) and
 * reads the answer's status and body.
 */
function send(port: number, requestLine: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  const head = Object.entries({ host: `localhost:${port}`, connection: 'close', ...headers })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('end', () => {
      const [statusLine = '', ...rest] = answer.split('\r\n');
      resolve({ status: Number(statusLine.split(' ')[1]), body: rest.join('\r\n') });
    });
    socket.on('error', reject);
    socket.write(`${requestLine}\r\n${head}\r\n`);
  });
}

describe('the shop (npm start) and its request targets', () => {
  const t = useTestShop();
  const port = () => Number(new URL(t.url).port);

  it('answers a path', async () => {
    const answer = await send(port(), 'GET /api/health HTTP/1.1');
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('"ok":true');
  });

  it('answers 400 to an absolute-form target or one starting //, whatever it names, before any function', async () => {
    const targets = [
      'http://evil.example/api/health',
      'HTTP://evil.example/api/health',
      'https://evil.example/api/health',
      `http://localhost:${port()}/api/health`,
      '//evil.example/api/health',
      '///evil.example/api/health',
      '/\\evil.example/api/health',
      '//evil.example/',
    ];
    for (const target of targets) {
      const answer = await send(port(), `GET ${target} HTTP/1.1`);
      expect(answer.status, target).toBe(400);
      if (answer.body) expect(answer.body, target).toContain(REQUEST_TARGET_MESSAGE);
    }
  });

  it('answers 400 before the backend and the Host check see it', async () => {
    const service = { apikey: LOCAL_SERVICE_ROLE_KEY, authorization: `Bearer ${LOCAL_SERVICE_ROLE_KEY}` };
    expect((await send(port(), 'GET http://evil.example/rest/v1/contact_submissions?select=* HTTP/1.1', service)).status).toBe(400);
    expect((await send(port(), 'GET //evil.example/auth/v1/user HTTP/1.1', service)).status).toBe(400);
    expect((await send(port(), 'GET http://evil.example/api/health HTTP/1.1', { host: 'evil.example' })).status).toBe(400);
  });

  it('answers 400 to the asterisk form', async () => {
    expect((await send(port(), 'OPTIONS * HTTP/1.1')).status).toBe(400);
  });
});

describe('the URL a handler is given', () => {
  let server: LocalServer;
  let port = 0;
  beforeAll(async () => {
    // A mount that answers with the URL of the request it was handed.
    const echo = { prefix: '/echo/', handle: async (request: Request) => new Response(request.url) };
    server = await startLocalServer({ projectRoot: process.cwd(), port: 0, mounts: [echo], distDir: join('tests', 'no-such-build') });
    port = Number(new URL(server.url).port);
  });
  afterAll(() => server.close());

  it('is on the server’s own origin, with the path and query of the request', async () => {
    const answer = await send(port, 'GET /echo/page?x=1 HTTP/1.1');
    expect(answer.status).toBe(200);
    expect(answer.body).toContain(`http://localhost:${port}/echo/page?x=1`);
  });

  it('is never built from a target naming another origin', async () => {
    for (const target of ['//evil.example/echo/page', 'http://evil.example/echo/page']) {
      const answer = await send(port, `GET ${target} HTTP/1.1`);
      expect(answer.status, target).toBe(400);
      expect(answer.body, target).not.toContain('evil.example');
    }
  });
});

describe('npm run dev, in front of Astro’s dev server', () => {
  type Middleware = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;
  let server: Server;
  let port = 0;
  const seen: string[] = [];
  beforeAll(async () => {
    // The shop's middleware as Astro's dev server mounts it, with a dynamic handler that records what reaches it
    // and a `next` standing in for Astro's pages.
    let middleware: Middleware | undefined;
    const record = async (req: IncomingMessage) => {
      seen.push(req.url ?? '');
      return false;
    };
    const dynamic = Promise.resolve(Object.assign(record, { scheduled: [] }));
    const setup = shopOnDevServer({ dynamic, netlify: readNetlifyRules({ configPath: join(process.cwd(), 'netlify.toml'), publishDir: join(process.cwd(), 'public') }) }).hooks[
      'astro:server:setup'
    ] as unknown as (options: unknown) => void;
    setup({ server: { middlewares: { use: (fn: Middleware) => (middleware = fn) } } });
    server = createServer((req, res) =>
      middleware?.(req, res, () => {
        // Astro has no page for the old checkout, an unknown post or a product added after the build.
        const missing = /^\/(checkout-v2|blog\/no-such|store\/product\/)/.test(req.url ?? '');
        res.writeHead(missing ? 404 : 200, { 'content-type': 'text/plain' });
        res.end(missing ? 'Astro has no page here' : `Astro page for ${req.url}`);
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('passes a path on, and answers 400 to an absolute-form target or one starting // before the functions or Astro', async () => {
    expect((await send(port, 'GET /about HTTP/1.1')).status).toBe(200);
    for (const target of ['http://evil.example/api/health', '//evil.example/api/health']) {
      const answer = await send(port, `GET ${target} HTTP/1.1`);
      expect(answer.status, target).toBe(400);
      expect(answer.body, target).toContain(REQUEST_TARGET_MESSAGE);
    }
    expect(seen).toEqual(['/about']);
  });

  it('follows netlify.toml as npm start does: a redirect, and a rewrite with the rule’s status over Astro’s page', async () => {
    const get = (path: string) => fetch(`http://127.0.0.1:${port}${path}`, { redirect: 'manual' });
    const redirect = await get('/checkout-v2?from=mail');
    expect([redirect.status, redirect.headers.get('location')]).toEqual([301, '/checkout?from=mail']);
    const post = await get('/blog/no-such-post');
    expect([post.status, await post.text()]).toEqual([404, 'Astro page for /blog/not-found']);
    const product = await get('/store/product/added-today');
    expect([product.status, await product.text()]).toEqual([200, 'Astro page for /store/product']);
    const page = await get('/blog/a-real-post');
    expect([page.status, await page.text()]).toEqual([200, 'Astro page for /blog/a-real-post']);
  });
});
