/**
 * A stand-in for a third-party HTTP API: a server on 127.0.0.1 (a free port) that records every request, body
 * included, and lets its caller answer it. The provider tests use it (tests/helpers/fake-provider.ts adds a test
 * file's lifecycle), and so do the doctor's stand-ins (tools/doctor/stand-ins.ts).
 */
import { createServer, type IncomingHttpHeaders, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

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

/** Answers with a JSON body; `headers` add to (or replace) the JSON content type. */
export function sendJson(response: ServerResponse, status: number, body: unknown, headers: OutgoingHttpHeaders = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}
