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
 * Reads and validates a JSON body. Returns the parsed value, or a 400/415 answer naming what is wrong.
 */
export async function readJsonBody<T>(request: Request, schema: ZodType<T>): Promise<{ data: T } | { response: Response }> {
  if (request.method !== 'POST') return { response: problem(405, 'Use POST with a JSON body.') };
  let raw: unknown;
  try {
    const text = await request.text();
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
 * Wraps a handler so an unexpected failure is logged and answered without leaking a stack trace, and a
 * missing configuration is a 503 that says so (the log names what is missing).
 */
export function handle(handler: FunctionHandler): FunctionHandler {
  return async (request, context) => {
    try {
      return await handler(request, context);
    } catch (error) {
      console.error(`[${new URL(request.url).pathname}]`, error instanceof ConfigurationError ? error.message : error);
      if (error instanceof ConfigurationError) return problem(503, error.userMessage);
      return problem(502, 'Something went wrong on our side. Please try again in a moment.');
    }
  };
}
