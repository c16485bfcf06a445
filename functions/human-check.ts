/**
 * GET /api/human-check: the bot-check's public site key ({ siteKey }, null where it is off), read by the forms when
 * they first need it. Served at run time, so one build serves a deploy with any widget, and the tests' shop with
 * Cloudflare's test key.
 */
import { readServerEnv } from '../src/config/env';
import { handle, json, type FunctionConfig } from './_lib/http';

// The key changes only with a deploy's settings: browsers and the CDN may keep it for five minutes.
export default handle(async () => json({ siteKey: readServerEnv().PUBLIC_TURNSTILE_SITE_KEY ?? null }, 200, { 'cache-control': 'public, max-age=300' }));

export const config: FunctionConfig = { path: '/api/human-check', method: ['GET'] };
