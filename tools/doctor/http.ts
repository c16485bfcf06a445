/** The doctor's one HTTP call: `fetch` with a deadline, the answer read whole, JSON parsed when it is JSON. */
import { ProviderError } from '../../functions/_lib/providers/errors';
import { requestProvider } from '../../functions/_lib/providers/transport';

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

/** The adapters' transport (one deadline for headers and body, JSON read when it is JSON), in the doctor's words. */
export function createRequester(timeoutMs: number, fetchImpl: typeof globalThis.fetch = globalThis.fetch): HttpRequest {
  return async (url, init = {}) => {
    try {
      return await requestProvider('doctor', fetchImpl, url, init, timeoutMs);
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      if (error.code === 'timeout') throw new Unreachable(`no answer within ${timeoutMs / 1000} s`, { cause: error });
      // What fetch itself said, with the reason under it (a refused connection, an unknown name).
      const failure = error.cause;
      const reason = failure instanceof Error && failure.cause instanceof Error ? `: ${failure.cause.message}` : '';
      throw new Unreachable(`${failure instanceof Error ? failure.message : String(failure)}${reason}`, { cause: error });
    }
  };
}
