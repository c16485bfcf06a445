/**
 * Resend: POST {base}/emails with `Authorization: Bearer <key>`, body { from, to, subject, text, html, reply_to } → { id }.
 * Errors are { statusCode, name, message } (e.g. 403 invalid_api_key, 422 validation_error, 429 rate_limit_exceeded).
 * An Idempotency-Key (1-256 characters, remembered by Resend for 24 hours) makes a retried send a no-op.
 */
import { z } from 'zod';
import { ProviderError } from './errors';
import { requestProvider } from './transport';
import type { EmailMessage, EmailProvider } from './email';

const NAME = 'resend';

export interface ResendOptions {
  apiKey: string;
  /** Sender, on a domain verified with Resend, e.g. `Shop <orders@example.com.au>`. */
  from: string;
  baseUrl?: string;
  fetch?: typeof globalThis.fetch;
  timeoutMs?: number;
}

const sentSchema = z.object({ id: z.string().min(1) });
const resendErrorSchema = z.object({ statusCode: z.number().optional(), name: z.string().optional(), message: z.string() });

export function createResendEmail(options: ResendOptions): EmailProvider {
  const { apiKey, from, baseUrl = 'https://api.resend.com', fetch: fetchImpl = globalThis.fetch, timeoutMs = 8000 } = options;

  return {
    name: NAME,
    async send(message: EmailMessage): Promise<void> {
      const key = message.idempotencyKey?.trim();
      if (key !== undefined && (key.length < 1 || key.length > 256)) {
        // Resend would refuse it with 400 invalid_idempotency_key; say so before sending anything.
        throw new ProviderError(NAME, 400, 'An idempotency key must be 1-256 characters.', { code: 'unsupported' });
      }
      const response = await requestProvider(
        NAME,
        fetchImpl,
        `${baseUrl.replace(/\/$/, '')}/emails`,
        {
          method: 'POST',
          headers: {
            authorization: `Bearer ${apiKey}`,
            'content-type': 'application/json',
            // Resend refuses requests without a User-Agent; say who we are rather than rely on the runtime's.
            'user-agent': 'catholic-kids-books-shop',
            ...(key ? { 'Idempotency-Key': key } : {}),
          },
          body: JSON.stringify({
            from,
            to: [message.to],
            subject: message.subject,
            text: message.text,
            ...(message.html ? { html: message.html } : {}),
            ...(message.replyTo ? { reply_to: [message.replyTo] } : {}),
          }),
        },
        timeoutMs,
      );

      if (!response.ok) {
        const error = resendErrorSchema.safeParse(response.body);
        const detail = error.success ? `${error.data.name ?? 'error'}: ${error.data.message}` : `HTTP ${response.status}`;
        throw new ProviderError(NAME, response.status, `Resend refused the email (${response.status}) ${detail}`);
      }
      if (!sentSchema.safeParse(response.body).success) {
        // It may well have been sent; with an idempotency key a retry is still safe.
        throw new ProviderError(NAME, 502, 'Resend answered without an email id.', { code: 'invalid-response' });
      }
    },
  };
}
