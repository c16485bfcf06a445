/**
 * Resend: POST {base}/emails with `Authorization: Bearer <key>`, body { from, to, subject, text, html, reply_to, headers } → { id };
 * POST {base}/emails/batch with an array of up to 100 such bodies → { data: [{ id }] } (strict validation: the
 * whole batch is refused when one email is invalid).
 * Errors are { statusCode, name, message } (e.g. 403 invalid_api_key, 422 validation_error, 429 rate_limit_exceeded).
 * An Idempotency-Key (1-256 characters, remembered by Resend for 24 hours) makes a retried send a no-op.
 */
import { z } from 'zod';
import { ProviderError } from './errors';
import { type HttpOptions, requestProvider } from './transport';
import { EMAIL_BATCH_MAX, type EmailMessage, type EmailProvider } from './email';

const NAME = 'resend';

export interface ResendOptions extends HttpOptions {
  apiKey: string;
  /** Sender, on a domain verified with Resend, e.g. `Shop <orders@example.com.au>`. */
  from: string;
}

const sentSchema = z.object({ id: z.string().min(1) });
const batchSentSchema = z.object({ data: z.array(sentSchema) });
const resendErrorSchema = z.object({ statusCode: z.number().optional(), name: z.string().optional(), message: z.string() });

export function createResendEmail(options: ResendOptions): EmailProvider {
  const { apiKey, from, baseUrl = 'https://api.resend.com', fetch: fetchImpl = globalThis.fetch, timeoutMs = 8000 } = options;

  const payload = (message: EmailMessage) => ({
    from,
    to: [message.to],
    subject: message.subject,
    text: message.text,
    ...(message.html ? { html: message.html } : {}),
    ...(message.replyTo ? { reply_to: [message.replyTo] } : {}),
    ...(message.headers && Object.keys(message.headers).length > 0 ? { headers: message.headers } : {}),
  });

  /** One POST to Resend; answers the body of a 2xx, throws a ProviderError saying what Resend refused. */
  async function post(path: string, body: unknown, idempotencyKey: string | undefined, what: string): Promise<unknown> {
    const key = idempotencyKey?.trim();
    if (key !== undefined && (key.length < 1 || key.length > 256)) {
      // Resend would refuse it with 400 invalid_idempotency_key; say so before sending anything.
      throw new ProviderError(NAME, 400, 'An idempotency key must be 1-256 characters.', { code: 'unsupported' });
    }
    const response = await requestProvider(
      NAME,
      fetchImpl,
      `${baseUrl.replace(/\/$/, '')}${path}`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${apiKey}`,
          'content-type': 'application/json',
          // Resend refuses requests without a User-Agent; say who we are rather than rely on the runtime's.
          'user-agent': 'catholic-kids-books-shop',
          ...(key ? { 'Idempotency-Key': key } : {}),
        },
        body: JSON.stringify(body),
      },
      timeoutMs,
    );
    if (!response.ok) {
      const error = resendErrorSchema.safeParse(response.body);
      const detail = error.success ? `${error.data.name ?? 'error'}: ${error.data.message}` : `HTTP ${response.status}`;
      throw new ProviderError(NAME, response.status, `Resend refused ${what} (${response.status}) ${detail}`);
    }
    return response.body;
  }

  return {
    name: NAME,
    async send(message: EmailMessage): Promise<void> {
      const answer = await post('/emails', payload(message), message.idempotencyKey, 'the email');
      if (!sentSchema.safeParse(answer).success) {
        // It may well have been sent; with an idempotency key a retry is still safe.
        throw new ProviderError(NAME, 502, 'Resend answered without an email id.', { code: 'invalid-response' });
      }
    },

    async sendBatch(messages: EmailMessage[], { idempotencyKey }: { idempotencyKey: string }): Promise<void> {
      if (messages.length === 0) return;
      if (messages.length > EMAIL_BATCH_MAX) throw new ProviderError(NAME, 400, `A batch can carry at most ${EMAIL_BATCH_MAX} emails.`, { code: 'unsupported' });
      const answer = await post('/emails/batch', messages.map(payload), idempotencyKey, 'the batch of emails');
      const sent = batchSentSchema.safeParse(answer);
      if (!sent.success || sent.data.data.length !== messages.length) {
        // They may well have been sent; the same idempotency key makes a retry safe.
        throw new ProviderError(NAME, 502, 'Resend answered the batch without an id for each email.', { code: 'invalid-response' });
      }
    },
  };
}
