/**
 * Resend's sending domain: GET {api}/domains (Bearer key) lists { data: [{ name, status }] }; the domain of
 * EMAIL_FROM must be there with status `verified`, or Resend refuses every email from it.
 * A sending-only key answers 401 restricted_api_key: right for the shop, but then the list cannot be read.
 */
import { z } from 'zod';
import type { CheckResult, DoctorContext } from '../types';
import { errorMessage, isCheckResult, reach, skip } from './common';

const NAME = 'Resend sending domain';

const domainsSchema = z.object({ data: z.array(z.object({ name: z.string(), status: z.string() })) });
const errorSchema = z.object({ name: z.string().optional(), message: z.string().optional() });

/** `Shop <orders@example.com.au>` or `orders@example.com.au` → example.com.au */
export function senderDomain(from: string): string | undefined {
  const address = /<([^>]+)>/.exec(from)?.[1] ?? from;
  const domain = /^[^\s@]+@([^\s@>]+)$/.exec(address.trim())?.[1];
  return domain?.toLowerCase();
}

export async function checkResend(context: DoctorContext): Promise<CheckResult> {
  const { RESEND_API_KEY: apiKey, EMAIL_FROM: from } = context.env;
  if (!apiKey || !from) return skip(NAME, 'needs RESEND_API_KEY and EMAIL_FROM (see Required variables)');
  const domain = senderDomain(from);
  if (!domain) {
    return {
      name: NAME,
      status: 'fail',
      detail: `EMAIL_FROM (${from}) is not an email address`,
      fix: 'Set EMAIL_FROM to an address on your verified domain, e.g. "Awesome Catholic Kids <orders@your-domain>".',
    };
  }
  const base = context.endpoints.resend.replace(/\/$/, '');
  // Resend refuses requests without a User-Agent.
  const answer = await reach(context, { name: NAME, what: `Resend (${base})`, overrideVariable: 'DOCTOR_RESEND_API_URL' }, `${base}/domains`, {
    headers: { authorization: `Bearer ${apiKey}`, 'user-agent': 'catholic-kids-books-doctor' },
  });
  if (isCheckResult(answer)) return answer;
  const error = errorSchema.safeParse(answer.body);
  const errorName = error.success ? error.data.name : undefined;
  if (errorName === 'restricted_api_key') {
    return {
      name: NAME,
      status: 'warn',
      detail: `RESEND_API_KEY may only send emails (as it should), so the domain list could not be read to confirm ${domain}`,
      fix: `Check in Resend → Domains that ${domain} shows "Verified", or run the doctor once with a full-access key in RESEND_API_KEY.`,
    };
  }
  if (answer.status === 401 || answer.status === 403) {
    return {
      name: NAME,
      status: 'fail',
      detail: `Resend refused RESEND_API_KEY (${answer.status}${errorName ? ` ${errorName}` : ''}${errorMessage(answer.body) ? `: ${errorMessage(answer.body)}` : ''})`,
      fix: 'Create a key in Resend → API Keys (permission "Sending access" is enough for the shop) and put it in RESEND_API_KEY (scope Functions).',
    };
  }
  const parsed = domainsSchema.safeParse(answer.body);
  if (!answer.ok || !parsed.success) {
    return {
      name: NAME,
      status: 'fail',
      detail: `Resend answered ${answer.status} without a domain list${errorMessage(answer.body) ? `: ${errorMessage(answer.body)}` : ''}`,
      fix: 'Run the doctor again; if it persists, check Resend’s status page.',
    };
  }
  const listed = parsed.data.data.find((entry) => entry.name.toLowerCase() === domain);
  if (!listed) {
    const others = parsed.data.data.map((entry) => entry.name);
    return {
      name: NAME,
      status: 'fail',
      detail: `${domain} (from EMAIL_FROM) is not a domain of this Resend account${others.length ? ` (it has ${others.join(', ')})` : ''}`,
      fix: `Resend → Domains → Add Domain: ${domain}, add the DNS records it shows at your DNS host, then Verify; or set EMAIL_FROM to an address on a domain already verified.`,
    };
  }
  if (listed.status !== 'verified') {
    return {
      name: NAME,
      status: 'fail',
      detail: `${domain} is "${listed.status}" in Resend, not verified: every email from ${from} would be refused`,
      fix: `Resend → Domains → ${domain}: add each DNS record it lists (DKIM and SPF; MX and TXT for the send. subdomain) at your DNS host exactly as shown, then press Verify and wait for "Verified".`,
    };
  }
  return { name: NAME, status: 'pass', detail: `${domain} is verified` };
}
