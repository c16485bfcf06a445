/**
 * The Stripe keys' modes, read from their documented prefixes: sk_/rk_ (secret, restricted) and pk_, each
 * _live_ or _test_; the webhook signing secret is whsec_…. A production deploy (CONTEXT=production) takes
 * real money only with live keys; a preview with live keys charges real cards.
 */
import type { CheckResult, DoctorContext } from '../types';
import { skip } from './common';

const NAME = 'Stripe keys';

type Mode = 'live' | 'test';

function modeOf(key: string, prefixes: readonly string[]): Mode | undefined {
  for (const prefix of prefixes) {
    if (key.startsWith(`${prefix}_live_`)) return 'live';
    if (key.startsWith(`${prefix}_test_`)) return 'test';
  }
  return undefined;
}

export async function checkStripeKeys(context: DoctorContext): Promise<CheckResult> {
  const { env } = context;
  const secret = env.STRIPE_SECRET_KEY;
  const publishable = env.STRIPE_PUBLISHABLE_KEY;
  if (!secret || !publishable) return skip(NAME, 'needs STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY (see Required variables)');

  const secretMode = modeOf(secret, ['sk', 'rk']);
  const publishableMode = modeOf(publishable, ['pk']);
  const problems: string[] = [];
  const fixes: string[] = [];
  const dashboard = 'Stripe Dashboard → Developers → API keys';

  if (!secretMode) {
    problems.push('STRIPE_SECRET_KEY is not a Stripe secret key (sk_live_…, sk_test_…, or a restricted rk_…)');
    fixes.push(`Copy the secret key from ${dashboard} into STRIPE_SECRET_KEY.`);
  }
  if (!publishableMode) {
    problems.push('STRIPE_PUBLISHABLE_KEY is not a publishable key (pk_live_… or pk_test_…)');
    fixes.push(`Copy the publishable key from ${dashboard} into STRIPE_PUBLISHABLE_KEY.`);
  }
  const testKeysInProduction = context.production
    ? [secretMode === 'test' && 'STRIPE_SECRET_KEY', publishableMode === 'test' && 'STRIPE_PUBLISHABLE_KEY'].filter((name): name is string => Boolean(name))
    : [];
  if (testKeysInProduction.length) {
    const which =
      testKeysInProduction.length > 1
        ? 'both keys are test keys'
        : `${testKeysInProduction[0]} is a test key${secretMode !== publishableMode ? ` beside a live ${testKeysInProduction[0] === 'STRIPE_SECRET_KEY' ? 'publishable' : 'secret'} key` : ''}`;
    problems.push(`this is a production deploy (CONTEXT=production), which takes real payments only with a live pair, but ${which}`);
    fixes.push(
      `Switch off "Test mode" in ${dashboard} and use the live pair (sk_live_…, pk_live_…); add the webhook endpoint again in live mode and put its signing secret in STRIPE_WEBHOOK_SECRET (endpoints and secrets are per mode).`,
    );
  } else if (secretMode && publishableMode && secretMode !== publishableMode) {
    problems.push(`the secret key is a ${secretMode} key but the publishable key is a ${publishableMode} key`);
    fixes.push(`Take both keys from the same mode of ${dashboard} (the "Test mode" switch shows one pair at a time).`);
  }
  if (env.STRIPE_WEBHOOK_SECRET && !env.STRIPE_WEBHOOK_SECRET.startsWith('whsec_')) {
    problems.push('STRIPE_WEBHOOK_SECRET is not a webhook signing secret (whsec_…)');
    fixes.push('Copy the signing secret of the /api/stripe-webhook endpoint (Stripe Dashboard → Developers → Webhooks → the endpoint → Signing secret) into STRIPE_WEBHOOK_SECRET.');
  }
  if (problems.length) return { name: NAME, status: 'fail', detail: problems.join('; '), fix: fixes.join('\n') };

  const mode = secretMode as Mode;
  if (mode === 'live' && !context.production) {
    return {
      name: NAME,
      status: 'warn',
      detail: `live keys on a deploy that is not production (${context.deployContext ? `CONTEXT=${context.deployContext}` : 'CONTEXT not given'}): its checkout charges real cards`,
      fix: 'Give the Deploy Previews and Branch deploys contexts test keys (sk_test_…, pk_test_…), or run the doctor with CONTEXT=production for the live site.',
    };
  }
  return { name: NAME, status: 'pass', detail: `${mode} keys, both of the same mode${context.production ? ', as production needs' : ''}` };
}
