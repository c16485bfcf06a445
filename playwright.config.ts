import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_FLAGS, HEADLESS_SHELL_PATH } from './tests/audit/chromium';
import { botCheckPort } from './tests/e2e/bot-check/keys';

/** Browser tests run Debian's Chromium headless shell against the built site on the local server; nothing is downloaded. */
const PORT = Number(process.env.E2E_PORT ?? 4399);
const desktop = { ...devices['Desktop Chrome'], channel: undefined };
const LONG_SPECS = [
  'dev-server',
  'back-office-scale',
  'gifts',
  'consent',
  'mailing-consent',
  'checkout-edges',
  'buyer',
  'stock',
  'back-office',
  'pricing',
  'newsletter-refunds',
  'first-tap',
  'back-office-day',
  'preorders-shop',
].map((name) => `**/${name}.spec.ts`);

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  // A shared 2-core machine can be several times slower than a quiet one: tests wait on what the page shows,
  // and these are only the limits of that wait.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  workers: process.env.CI ? 2 : undefined,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  use: {
    baseURL: `http://localhost:${PORT}`,
    // Recording a trace costs every test a share of the machine: in CI only the retry of a failed test records one.
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    launchOptions: { executablePath: HEADLESS_SHELL_PATH, args: CHROMIUM_FLAGS },
  },
  // Desktop by default; tests that check the 375 px layout set their own viewport. Tests run in the order of
  // the projects: the files holding the longest tests (10-30 s each, and the GA4 build of consent.spec) go
  // first, so the workers end on short tests and finish together.
  projects: [
    { name: 'chromium-long', testMatch: LONG_SPECS, use: desktop },
    { name: 'chromium', testIgnore: LONG_SPECS, use: desktop },
  ],
  webServer: [
    {
      command: `tsx local/start.ts --no-build`,
      url: `http://localhost:${PORT}/api/health`,
      // LOCAL_CDN_CACHE=off: tests write to the database directly and expect the pages to show it at once.
      env: {
        PORT: String(PORT),
        LOCAL_DB: 'memory',
        LOCAL_CDN_CACHE: 'off',
        LOCAL_OUTBOX_FILE: 'test-results/outbox.jsonl',
        LOCAL_SHIPPING_FILE: 'test-results/shipping-platform.jsonl',
        LOCAL_XERO_FILE: 'test-results/xero.jsonl',
        ...(process.env.LOCAL_DIST_DIR && { LOCAL_DIST_DIR: process.env.LOCAL_DIST_DIR }),
      },
      reuseExistingServer: false,
      timeout: 180_000,
    },
    {
      // The same shop with the bot-check on (Turnstile's test keys), for tests/e2e/forms-bot-check.spec.ts.
      command: 'tsx tests/e2e/bot-check/server.ts',
      url: `http://localhost:${botCheckPort(PORT)}/api/health`,
      env: { PORT: String(botCheckPort(PORT)), LOCAL_OUTBOX_FILE: 'test-results/outbox-bot-check.jsonl' },
      reuseExistingServer: false,
      timeout: 180_000,
    },
  ],
});
