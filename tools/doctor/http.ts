/** The doctor's one HTTP call: `fetch` with a deadline, the answer read whole, JSON parsed when it is JSON. */

export interface HttpAnswer {
  status: number;
  ok: boolean;
  headers: Headers;
  /** Parsed JSON, or undefined when the body is empty or not JSON. */
  body: unknown;
  /** The address that answered, after redirects. */
  url: string;
}

export type HttpRequest = (url: string, init?: RequestInit) => Promise<HttpAnswer>;

/** The request got no answer: a timeout, a refused connection, a name that does not resolve. */
export class Unreachable extends Error {
  override name = 'Unreachable';
}

export function createRequester(timeoutMs: number, fetchImpl: typeof globalThis.fetch = globalThis.fetch): HttpRequest {
  return async (url, init = {}) => {
    const signal = AbortSignal.timeout(timeoutMs);
    let response: Response;
    let text: string;
    try {
      response = await fetchImpl(url, { ...init, signal });
      text = await response.text();
    } catch (error) {
      if (signal.aborted) throw new Unreachable(`no answer within ${timeoutMs / 1000} s`, { cause: error });
      const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
      throw new Unreachable(`${error instanceof Error ? error.message : String(error)}${cause}`, { cause: error });
    }
    let body: unknown;
    if (text.trim() !== '') {
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
    }
    return { status: response.status, ok: response.ok, headers: response.headers, body, url: response.url || url };
  };
}
