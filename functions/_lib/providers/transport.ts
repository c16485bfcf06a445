/** The one HTTP transport the adapters share. */
import { ProviderError } from './errors';

/** What every HTTP adapter takes besides its keys: tests point it at a local server and shorten its deadline. */
export interface HttpOptions {
  baseUrl?: string;
  fetch?: typeof globalThis.fetch;
  timeoutMs?: number;
}

export interface ProviderHttpResponse {
  status: number;
  ok: boolean;
  /** The parsed JSON body, or undefined when the body is empty or not JSON (gateways answer HTML too). */
  body: unknown;
  headers: Headers;
  /** The address that answered, after redirects. */
  url: string;
}

/**
 * One HTTP call to a provider with a hard deadline. A provider that does not answer in `timeoutMs` (headers and
 * body together) or cannot be reached becomes a ProviderError, so a slow carrier can never hang a function
 * past Netlify's own limit. Any HTTP status is returned to the adapter, which knows its provider's error shape.
 */
export async function requestProvider(provider: string, fetchImpl: typeof globalThis.fetch, url: string, init: RequestInit, timeoutMs: number): Promise<ProviderHttpResponse> {
  const signal = AbortSignal.timeout(timeoutMs);
  let text: string;
  let response: Response;
  try {
    response = await fetchImpl(url, { ...init, signal });
    text = await response.text();
  } catch (error) {
    if (signal.aborted) {
      throw new ProviderError(provider, 504, `${provider} did not answer within ${timeoutMs} ms.`, { code: 'timeout', cause: error });
    }
    throw new ProviderError(provider, 502, `${provider} could not be reached: ${error instanceof Error ? error.message : String(error)}`, {
      code: 'network',
      cause: error,
    });
  }
  let body: unknown;
  if (text.trim() !== '') {
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
  }
  return { status: response.status, ok: response.ok, body, headers: response.headers, url: response.url || url };
}
