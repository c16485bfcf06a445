/**
 * Cloudflare Turnstile's secret key, tested without a real token: POST {api}/turnstile/v0/siteverify with the
 * secret and a made-up response. A valid secret answers success:false with `invalid-input-response` (the token
 * is bad); a wrong one answers `invalid-input-secret`. Cloudflare's dummy keys (1x…, 2x…, 3x…) are for tests.
 */
import type { CheckResult, DoctorContext } from '../types';
import { isCheckResult, reach, skip } from './common';

const NAME = 'Turnstile secret';

const DUMMY_SECRET = /^[123]x0{31}AA$/;
const DUMMY_SITE_KEY = /^[123]x0{20}[A-Z]{2}$/;

export async function checkTurnstile(context: DoctorContext): Promise<CheckResult> {
  const { TURNSTILE_SECRET_KEY: secret, PUBLIC_TURNSTILE_SITE_KEY: siteKey } = context.env;
  if (!secret) return skip(NAME, 'needs TURNSTILE_SECRET_KEY (see Required variables)');

  const dummies = [DUMMY_SECRET.test(secret) && 'TURNSTILE_SECRET_KEY', siteKey && DUMMY_SITE_KEY.test(siteKey) && 'PUBLIC_TURNSTILE_SITE_KEY'].filter((name): name is string => Boolean(name));
  if (dummies.length) {
    return {
      name: NAME,
      status: context.production ? 'fail' : 'warn',
      detail: `${dummies.join(' and ')} ${dummies.length > 1 ? 'are' : 'is'} Cloudflare's test key${dummies.length > 1 ? 's' : ''}: the bot-check lets every visitor through (or none)`,
      fix: 'Cloudflare → Turnstile → your widget (Managed mode, with the site’s hostnames): put its site key in PUBLIC_TURNSTILE_SITE_KEY and its secret key in TURNSTILE_SECRET_KEY (both scope Functions), then redeploy.',
    };
  }

  const base = context.endpoints.turnstile.replace(/\/$/, '');
  const answer = await reach(context, { name: NAME, what: `Cloudflare Turnstile (${base})`, overrideVariable: 'DOCTOR_TURNSTILE_API_URL' }, `${base}/turnstile/v0/siteverify`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ secret, response: 'doctor-check-not-a-real-token' }).toString(),
  });
  if (isCheckResult(answer)) return answer;
  const body = (answer.body ?? {}) as { success?: unknown; 'error-codes'?: unknown };
  const codes = Array.isArray(body['error-codes']) ? body['error-codes'].filter((code): code is string => typeof code === 'string') : [];

  if (codes.includes('invalid-input-secret') || codes.includes('missing-input-secret')) {
    return {
      name: NAME,
      status: 'fail',
      detail: `Cloudflare does not know TURNSTILE_SECRET_KEY (${codes.join(', ')})`,
      fix: 'Cloudflare → Turnstile → your widget → Settings: copy the secret key into TURNSTILE_SECRET_KEY (scope Functions); it must belong to the same widget as PUBLIC_TURNSTILE_SITE_KEY.',
    };
  }
  if (body.success === false && codes.includes('invalid-input-response')) {
    return { name: NAME, status: 'pass', detail: 'Cloudflare accepts the secret (a made-up token is refused as invalid-input-response, as it should be)' };
  }
  return {
    name: NAME,
    status: 'fail',
    detail: `siteverify answered ${answer.status} ${answer.body === undefined ? 'without JSON' : JSON.stringify(answer.body)}: the secret could not be confirmed`,
    fix: 'Run the doctor again; if it persists, check the secret in Cloudflare → Turnstile → your widget → Settings.',
  };
}
