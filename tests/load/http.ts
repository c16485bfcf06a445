/**
 * A small HTTP client for the load run: loopback only (127.0.0.1), no redirects followed, a timeout on
 * every request, and every answer (or network failure) recorded with its latency.
 *
 * Each simulated shopper connects from its own loopback address (127.1.x.y — Linux routes all of 127/8 to
 * the loopback interface), so the server's per-address rate limits see separate visitors, as they would
 * in production, instead of one address making every request.
 */
import http from 'node:http';

export type Phase = 'before-restart' | 'restart' | 'after-restart';

export interface Sample {
  endpoint: string;
  /** HTTP status, or the network error code (ECONNREFUSED, ECONNRESET, TIMEOUT…). */
  status: number | string;
  ms: number;
  phase: Phase;
}

export class Recorder {
  readonly samples: Sample[] = [];
  phase: Phase = 'before-restart';

  add(endpoint: string, status: number | string, ms: number): void {
    this.samples.push({ endpoint, status, ms, phase: this.phase });
  }
}

export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export class NetworkError extends Error {
  constructor(readonly code: string) {
    super(code);
  }
}

const TIMEOUT_MS = 20_000;

let identities = 0;
/** The next unused loopback source address: 127.1.0.1, 127.1.0.2, … (65 000 before it wraps). */
export function nextLoopbackAddress(): string {
  const n = identities++ % (254 * 254);
  return `127.1.${Math.floor(n / 254)}.${(n % 254) + 1}`;
}

/** One visitor's connection to the shop on 127.0.0.1:port, kept alive across its requests. */
export class LoopbackClient {
  readonly #agent: http.Agent;

  constructor(
    private readonly port: number,
    private readonly recorder: Recorder,
    readonly address: string = nextLoopbackAddress(),
  ) {
    this.#agent = new http.Agent({ keepAlive: true, maxSockets: 2 });
  }

  /** Sends one request and records it under `endpoint`. Throws NetworkError when no answer came. */
  request(endpoint: string, method: 'GET' | 'POST' | 'PATCH', path: string, options: { headers?: Record<string, string>; body?: string } = {}): Promise<Reply> {
    const started = performance.now();
    let settled = false;
    return new Promise<Reply>((resolve, reject) => {
      const request = http.request(
        {
          host: '127.0.0.1',
          port: this.port,
          localAddress: this.address,
          method,
          path,
          agent: this.#agent,
          // The site builds its own absolute URLs (payment return addresses) from the Host header.
          headers: { host: `localhost:${this.port}`, ...(options.body !== undefined && { 'content-length': String(Buffer.byteLength(options.body)) }), ...options.headers },
          timeout: TIMEOUT_MS,
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            if (settled) return;
            settled = true;
            const status = response.statusCode ?? 0;
            this.recorder.add(endpoint, status, performance.now() - started);
            resolve({ status, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') });
          });
          response.on('error', (error: NodeJS.ErrnoException) => fail(error.code ?? 'ERESPONSE'));
        },
      );
      const fail = (code: string) => {
        if (settled) return;
        settled = true;
        this.recorder.add(endpoint, code, performance.now() - started);
        reject(new NetworkError(code));
      };
      request.on('timeout', () => request.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
      request.on('error', (error: NodeJS.ErrnoException) => fail(error.code ?? 'ENETWORK'));
      request.end(options.body);
    });
  }

  close(): void {
    this.#agent.destroy();
  }
}
