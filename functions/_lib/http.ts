/**
 * What every function shares: its Netlify config shape and JSON answers.
 * Functions are web-standard `Request -> Response` handlers; Netlify runs them in production,
 * and the local server mounts the same modules at the same paths.
 */
import type { ZodType } from 'zod';
import { ConfigurationError } from './runtime';

export interface FunctionConfig {
  /** Public path, always under /api/. */
  path: `/api/${string}`;
  method?: Array<'GET' | 'POST'>;
  /** Netlify's per-function rate limit (also applied by the local server). */
  rateLimit?: { windowLimit: number; windowSize: number; aggregateBy: Array<'ip' | 'domain'> };
}

/** The part of Netlify's function context this project reads: the visitor's country from Netlify's geolocation. */
export interface FunctionContext {
  geo?: { country?: { code?: string | undefined } | undefined } | undefined;
}

/**
 * A Netlify scheduled function's config: a cron expression in UTC (or `@hourly`, `@daily` …). It has no path:
 * Netlify runs it on its schedule and refuses to run it by URL in a deploy.
 */
export interface ScheduledFunctionConfig {
  schedule: string;
}

export type FunctionHandler = (request: Request, context?: FunctionContext) => Promise<Response>;

export function json(body: unknown, status = 200, headers: HeadersInit = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });
}

/** A 4xx answer with a message a person can act on. */
export function problem(status: number, error: string, details?: unknown): Response {
  return json(details === undefined ? { error } : { error, details }, status);
}

/**
 * The largest body a function reads. The shop's largest real body (a contact message of 5000 characters,
 * escaped, with a 2048-character bot-check token) is well under it; anything bigger is refused unread.
 */
export const MAX_BODY_BYTES = 64 * 1024;

/** A body over its function's limit: `handle` answers 413. */
class BodyTooLargeError extends Error {
  override name = 'BodyTooLargeError';

  constructor(readonly limitBytes: number) {
    super(`The request body is over ${limitBytes} bytes.`);
  }
}

function tooLarge(limitBytes: number): Response {
  return problem(413, `The request is too large (at most ${Math.floor(limitBytes / 1024)} KB). Please shorten what you entered and try again.`);
}

const declaredLength = (request: Request) => Number(request.headers.get('content-length') ?? 0);

/**
 * The body as text, refused with BodyTooLargeError past `limitBytes`: first by its Content-Length, then by
 * counting what arrives, since a chunked body declares no length. Never holds more than the limit.
 */
export async function readBodyText(request: Request, limitBytes = MAX_BODY_BYTES): Promise<string> {
  if (declaredLength(request) > limitBytes) throw new BodyTooLargeError(limitBytes);
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limitBytes) {
      await reader.cancel().catch(() => {});
      throw new BodyTooLargeError(limitBytes);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/**
 * Reads and validates a JSON body of at most MAX_BODY_BYTES. Returns the parsed value, or a 400/405 answer
 * naming what is wrong (a body over the limit is answered 413 by `handle`).
 */
export async function readJsonBody<T>(request: Request, schema: ZodType<T>): Promise<{ data: T } | { response: Response }> {
  if (request.method !== 'POST') return { response: problem(405, 'Use POST with a JSON body.') };
  const text = await readBodyText(request);
  let raw: unknown;
  try {
    raw = text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    return { response: problem(400, 'The request body is not valid JSON.') };
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const where = first?.path.length ? `${first.path.join('.')}: ` : '';
    return {
      response: problem(
        400,
        `${where}${first?.message ?? 'Invalid request.'}`,
        parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
      ),
    };
  }
  return { data: parsed.data };
}

/**
 * Wraps a handler so an unexpected failure is logged and answered without leaking a stack trace, a missing
 * configuration is a 503 that says so (the log names what is missing), and a body over the function's limit
 * is a 413: refused by its Content-Length before the handler runs, or when reading it finds it too long.
 */
export function handle(handler: FunctionHandler, options: { maxBodyBytes?: number } = {}): FunctionHandler {
  const limit = options.maxBodyBytes ?? MAX_BODY_BYTES;
  return async (request, context) => {
    if (declaredLength(request) > limit) return tooLarge(limit);
    try {
      return await handler(request, context);
    } catch (error) {
      if (error instanceof BodyTooLargeError) return tooLarge(error.limitBytes);
      console.error(`[${new URL(request.url).pathname}]`, error instanceof ConfigurationError ? error.message : error);
      if (error instanceof ConfigurationError) return problem(503, error.userMessage);
      return problem(502, 'Something went wrong on our side. Please try again in a moment.');
    }
  };
}

/**
 * `handle` for an endpoint that takes a JSON body: `handler` runs with the body as `schema` parsed it, and a body
 * that is not a POST, not JSON or not valid is answered with its 4xx first.
 */
export function handleJson<T>(schema: ZodType<T>, handler: (body: T, request: Request) => Promise<Response>): FunctionHandler {
  return handle(async (request) => {
    const parsed = await readJsonBody(request, schema);
    if ('response' in parsed) return parsed.response;
    return handler(parsed.data, request);
  });
}
