/** Cloudflare's documented Turnstile test keys. */
export const TEST_SITE_KEY = '1x00000000000000000000AA';
export const TEST_SECRET_KEYS = { pass: '1x0000000000000000000000000000000AA', fail: '2x0000000000000000000000000000000AA' } as const;
/** The bot-check server listens next to the main one. */
export const botCheckPort = (mainPort: number) => mainPort + 1;
