/**
 * The local server refuses requests addressed to any name but localhost, 127.0.0.1 or [::1] on its port,
 * so a page that rebinds its own name to 127.0.0.1 cannot reach the shop or the embedded backend.
 */
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { LOCAL_SERVICE_ROLE_KEY } from '../../local/backend/keys';
import { useTestShop } from '../helpers/shop';

const t = useTestShop();
const port = () => Number(new URL(t.url).port);

/** A request with a Host header of our choosing (fetch does not let a caller set it). */
function get(path: string, host: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: port(), path, headers: { host, ...headers } }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('local server Host check', () => {
  it('answers localhost, 127.0.0.1 and [::1] on its own port', async () => {
    for (const host of [`localhost:${port()}`, `127.0.0.1:${port()}`, `[::1]:${port()}`, `LOCALHOST:${port()}`]) {
      expect((await get('/api/health', host)).status, host).toBe(200);
    }
  });

  it('refuses a rebound name, another port or no port, before reaching a page, a function or the backend', async () => {
    const service = { apikey: LOCAL_SERVICE_ROLE_KEY, authorization: `Bearer ${LOCAL_SERVICE_ROLE_KEY}` };
    for (const host of [`attacker.example:${port()}`, `localhost.attacker.example:${port()}`, `localhost:${port() + 1}`, 'localhost', `127.0.0.2:${port()}`, `0.0.0.0:${port()}`]) {
      for (const path of ['/', '/api/health', '/rest/v1/contact_submissions?select=*', '/auth/v1/user']) {
        const answer = await get(path, host, service);
        expect(answer.status, `${host} ${path}`).toBe(403);
        expect(answer.body).toBe('This local server only answers requests for localhost, 127.0.0.1 or [::1] on its own port.');
      }
    }
  });
});
