/**
 * The shop with the bot-check on, for tests/e2e/forms-bot-check.spec.ts: the same build as the main test server,
 * with Cloudflare's always-passing test site key (which /api/human-check hands the forms) and its test secret.
 * Tests never reach the network, so Cloudflare's siteverify is answered here as Cloudflare answers for its
 * test secrets: 1x… passes any token, 2x… fails it.
 */
import { join } from 'node:path';
import { startShop } from '../../../local/shop';
import { TEST_SECRET_KEYS, TEST_SITE_KEY } from './keys';

const SITEVERIFY = 'https://challenges.cloudflare.com/turnstile/v0/siteverify';
const realFetch = globalThis.fetch;

globalThis.fetch = async (input, init) => {
  const url = input instanceof Request ? input.url : String(input);
  if (url !== SITEVERIFY) return realFetch(input, init);
  const form = new URLSearchParams(String(init?.body ?? ''));
  const passes = form.get('secret') === TEST_SECRET_KEYS.pass && Boolean(form.get('response'));
  return Response.json(
    passes ? { success: true, challenge_ts: new Date().toISOString(), hostname: 'example.com', action: 'test', 'error-codes': [] } : { success: false, 'error-codes': ['invalid-input-response'] },
  );
};

process.env.PUBLIC_TURNSTILE_SITE_KEY = TEST_SITE_KEY;
process.env.TURNSTILE_SECRET_KEY ??= TEST_SECRET_KEYS.pass;
const shop = await startShop({ projectRoot: join(import.meta.dirname, '../../..'), port: Number(process.env.PORT), data: 'memory' });
console.log(`Shop with the bot-check on at ${shop.server.url}`);
const stop = () => void shop.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
