/** GET /api/human-check: the bot-check's public site key (null where it is off), read by the forms at run time so one build serves any deploy's widget. */
import { readServerEnv } from '../src/config/env';
import { handle, json, type FunctionConfig } from './_lib/http';

export default handle(async () => json({ siteKey: readServerEnv().PUBLIC_TURNSTILE_SITE_KEY ?? null }, 200, { 'cache-control': 'public, max-age=300' }));

export const config: FunctionConfig = { path: '/api/human-check', method: ['GET'] };
