/**
 * A stand-in for a third-party HTTP API in provider adapter tests: a server on 127.0.0.1 (a free port) that
 * records every request, body included, and lets the test answer it. What the provider itself checks first
 * (its API key, its error bodies) stays in each test file, wrapped around the handler.
 * A test file usually calls useFakeProvider() once; startFakeProvider() is the same server without the lifecycle.
 */
import { createServer, type IncomingHttpHeaders, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

/** One request as the fake provider received it. */
export interface Seen<Body = string> {
  method: string;
  /** The request target exactly as sent, query included. */
  path: string;
  /** The same target, parsed. */
  url: URL;
  headers: IncomingHttpHeaders;
  /** The whole request body, as parseBody read it (the raw text by default). */
  body: Body;
}

export type Handler<Body = string> = (seen: Seen<Body>, response: ServerResponse) => void;

export interface FakeProviderOptions<Body> {
  /** Reads the raw body text (for a GET, the query is in `url`). */
  parseBody?: (raw: string, request: { method: string; url: URL }) => Body;
}

export interface FakeProvider<Body = string> {
  /** Base URL, e.g. http://127.0.0.1:54321 */
  url: string;
  port: number;
  /** Every request received, in order, recorded before the handler runs. */
  seen: Array<Seen<Body>>;
  /** Drops open connections and stops listening; safe to call more than once. */
  close: () => Promise<void>;
}

export async function startFakeProvider<Body = string>(handler: Handler<Body>, options: FakeProviderOptions<Body> = {}): Promise<FakeProvider<Body>> {
  const parseBody = options.parseBody ?? ((raw: string) => raw as Body);
  const seen: Array<Seen<Body>> = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const method = request.method ?? '';
      const path = request.url ?? '/';
      const url = new URL(path, 'http://127.0.0.1');
      const entry: Seen<Body> = { method, path, url, headers: request.headers, body: parseBody(Buffer.concat(chunks).toString(), { method, url }) };
      seen.push(entry);
      handler(entry, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  let closed: Promise<void> | undefined;
  const close = () =>
    (closed ??= new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }));
  return { url: `http://127.0.0.1:${port}`, port, seen, close };
}

/**
 * One fake provider per test for a test file: `start` begins a new one, and it is closed after each test.
 * `seen` and `close` refer to the one the current test started.
 */
export function useFakeProvider<Body = string>(options: FakeProviderOptions<Body> = {}) {
  let current: FakeProvider<Body> | undefined;
  const started = (): FakeProvider<Body> => {
    if (!current) throw new Error('No fake provider was started in this test');
    return current;
  };
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return {
    start: async (handler: Handler<Body>): Promise<FakeProvider<Body>> => (current = await startFakeProvider(handler, options)),
    get seen(): Array<Seen<Body>> {
      return started().seen;
    },
    close: (): Promise<void> => started().close(),
  };
}

/** Answers with a JSON body; `headers` add to (or replace) the JSON content type. */
export function sendJson(response: ServerResponse, status: number, body: unknown, headers: OutgoingHttpHeaders = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}
