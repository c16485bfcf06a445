/**
 * The author's loop: `npm run dev` on its own port, a landing page open in the browser, its YAML heading
 * edited on disk and the new heading shown on the open page with no reload by the test and no restart of
 * the server; then the shop works in dev too, from the cart to the TEST payment page.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { addToCart, uniqueEmail } from './support';

const LANDING = 'catholic-counting-books-for-kids';
const YAML_FILE = join(process.cwd(), 'content', 'landing', `${LANDING}.yaml`);
const HEADING = 'Catholic Counting Books for Kids';

/** E2E_DEV_PORT, else the main test server's port + 1000, so parallel runs on other ports never meet. */
function devPort(baseURL: string | undefined): number {
  if (process.env.E2E_DEV_PORT) return Number(process.env.E2E_DEV_PORT);
  return Number(new URL(baseURL ?? 'http://localhost:4399').port) + 1000;
}

/** Start-up is about 10 s on a quiet machine; the margin is for a busy one. */
async function waitForHealth(url: string, server: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`npm run dev exited with ${server.exitCode}:\n${output()}`);
    const ok = await fetch(`${url}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`npm run dev did not answer within 90 s:\n${output()}`);
}

function startDevServer(port: number): { server: ChildProcess; output: () => string } {
  let log = '';
  // Its own process group, so stopping it also stops the Node process tsx starts.
  const server = spawn('npm', ['run', 'dev'], {
    cwd: process.cwd(),
    env: { ...process.env, PORT: String(port), LOCAL_DB: 'memory', LOCAL_OUTBOX_FILE: 'test-results/dev-outbox.jsonl' },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  server.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  return { server, output: () => log };
}

/** SIGTERM lets it close the database; whatever still runs after 10 s is killed, so the port is free again. */
async function stopDevServer(server: ChildProcess): Promise<void> {
  if (!server.pid || server.exitCode !== null) return;
  const exited = new Promise((resolve) => server.once('exit', resolve));
  process.kill(-server.pid, 'SIGTERM');
  const timer = setTimeout(() => {
    try {
      process.kill(-server.pid!, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }, 10_000);
  await exited;
  clearTimeout(timer);
}

test('npm run dev: a landing heading edited in YAML shows on the open page without a restart; the cart reaches the TEST payment page', async ({ page, baseURL }, testInfo) => {
  test.setTimeout(180_000);
  const port = devPort(baseURL);
  const url = `http://localhost:${port}`;
  const original = readFileSync(YAML_FILE, 'utf8');
  expect(original, `${YAML_FILE} holds the heading this test edits`).toContain(`heading: "${HEADING}"`);
  const { server, output } = startDevServer(port);
  try {
    await waitForHealth(url, server, output);

    await page.goto(`${url}/${LANDING}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(HEADING);

    const edited = `${HEADING}, Edited Live`;
    writeFileSync(YAML_FILE, original.replace(`heading: "${HEADING}"`, `heading: "${edited}"`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(edited, { timeout: 20_000 });
    expect(server.exitCode, 'the dev server kept running').toBeNull();

    // The shop on the same origin: add the book, check out as a guest, reach the local TEST payment page.
    await addToCart(page, `${url}/book`);
    await page.goto(`${url}/checkout`);
    await page.getByLabel('Email').fill(uniqueEmail('dev'));
    await page.getByLabel('Address line 1').fill('1 Church St');
    await page.getByLabel('City / suburb').fill('Parramatta');
    await page.getByLabel('Postcode').fill('2150');
    await expect(page.getByRole('radio', { name: /AU Standard Courier/ })).toBeChecked();
    const [payment] = await Promise.all([page.context().waitForEvent('page'), page.getByRole('button', { name: 'Proceed to Payment' }).click()]);
    await payment.waitForLoadState();
    await expect(payment).toHaveURL(new RegExp(`^${url}/api/test-payment`));
    await expect(payment.getByText('TEST PAYMENT')).toBeVisible();
  } finally {
    writeFileSync(YAML_FILE, original);
    await stopDevServer(server);
    await testInfo.attach('npm run dev output', { body: output(), contentType: 'text/plain' });
  }
});
