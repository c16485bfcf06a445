/** The two errors every adapter throws, so callers decide without reading a provider's own messages. */

/**
 * What went wrong, coarsely:
 * `timeout` and `network` mean the provider was not reached in time (worth a fallback or a retry),
 * `rejected` means it answered with an error, `invalid-response` means it answered something we cannot trust,
 * `unsupported` means the request was never sent because the provider cannot serve it.
 */
export type ProviderErrorCode = 'timeout' | 'network' | 'rejected' | 'invalid-response' | 'unsupported';

/** Thrown by adapters on any provider failure. `message` is for logs; `userMessage` only when safe to show a shopper. */
export class ProviderError extends Error {
  readonly provider: string;
  /** The provider's HTTP status, or the closest one (504 timeout, 502 unreachable or garbage, 400 refused locally). */
  readonly status: number;
  readonly code: ProviderErrorCode;
  readonly userMessage: string | undefined;

  constructor(provider: string, status: number, message: string, options: { code?: ProviderErrorCode; userMessage?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ProviderError';
    this.provider = provider;
    this.status = status;
    this.code = options.code ?? 'rejected';
    this.userMessage = options.userMessage;
  }
}

/** A webhook whose signature is missing or does not match: answer 400 and do nothing. */
export class WebhookSignatureError extends Error {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'WebhookSignatureError';
  }
}
