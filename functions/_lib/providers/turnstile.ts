/**
 * Cloudflare Turnstile server-side check: POST {base}/turnstile/v0/siteverify (form-encoded secret, response,
 * remoteip, idempotency_key) → { success, challenge_ts, hostname, "error-codes", action, cdata }.
 * A token proves little on its own: it must also have been minted for this form (action) on this site (hostname),
 * or a token solved on another page that embeds our site key would pass.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { ProviderError } from './errors';
import { type HttpOptions, requestProvider } from './transport';
import type { HumanCheckProvider, HumanCheckResult } from './human-check';

const NAME = 'turnstile';

export interface TurnstileOptions extends HttpOptions {
  secretKey: string;
}

/** Cloudflare's documented limit; longer strings are not tokens. */
const MAX_TOKEN_LENGTH = 2048;

/**
 * Cloudflare's dummy secrets (1x… passes, 2x… fails, 3x… "already spent") answer for any token, and not for
 * our site or form, so the action and hostname checks cannot apply to them. They are for tests and previews only.
 */
const DUMMY_SECRET = /^[123]x0{31}AA$/;

const siteverifySchema = z.object({
  success: z.boolean(),
  'error-codes': z.array(z.string()).optional().default([]),
  challenge_ts: z.string().optional(),
  hostname: z.string().optional(),
  action: z.string().optional(),
  cdata: z.string().optional(),
});

const UNAVAILABLE: HumanCheckResult = { ok: false, reason: 'verification-unavailable', unavailable: true };

export function createTurnstileCheck(options: TurnstileOptions): HumanCheckProvider {
  const { secretKey, baseUrl = 'https://challenges.cloudflare.com', fetch: fetchImpl = globalThis.fetch, timeoutMs = 8000 } = options;
  const checksBinding = !DUMMY_SECRET.test(secretKey);

  return {
    name: NAME,
    verifies: true,
    async verify(token, expected): Promise<HumanCheckResult> {
      const response = token.trim();
      if (!response) return { ok: false, reason: 'missing-input-response' };
      if (response.length > MAX_TOKEN_LENGTH) return { ok: false, reason: 'invalid-input-response' };

      const form = new URLSearchParams({ secret: secretKey, response, idempotency_key: randomUUID() });
      if (expected.remoteIp) form.set('remoteip', expected.remoteIp);

      let answer: Awaited<ReturnType<typeof requestProvider>>;
      try {
        answer = await requestProvider(
          NAME,
          fetchImpl,
          `${baseUrl.replace(/\/$/, '')}/turnstile/v0/siteverify`,
          { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() },
          timeoutMs,
        );
      } catch (error) {
        // Timeouts and unreachable hosts: no verdict, which the caller treats as "not verified".
        if (error instanceof ProviderError) return UNAVAILABLE;
        throw error;
      }

      // A 5xx or an answer that is not siteverify's JSON (a Cloudflare error page) has not said yes or no.
      if (answer.status >= 500) return UNAVAILABLE;
      const parsed = siteverifySchema.safeParse(answer.body);
      if (!parsed.success) return UNAVAILABLE;
      const result = parsed.data;

      if (!result.success) return { ok: false, reason: result['error-codes'][0] ?? 'verification-failed' };
      if (checksBinding) {
        if (result.action !== expected.action) return { ok: false, reason: 'action-mismatch' };
        if ((result.hostname ?? '').toLowerCase() !== expected.hostname.toLowerCase()) return { ok: false, reason: 'hostname-mismatch' };
      }
      return { ok: true };
    },
  };
}
