import { describe, expect, it } from 'vitest';
import type { ScheduledFunction } from '../../local/functions';
import { runScheduled, startSchedules } from '../../local/schedules';

function recorder(schedule: string) {
  const requests: Request[] = [];
  const fn: ScheduledFunction = {
    name: 'tidy-up',
    config: { schedule },
    handler: async (request) => {
      requests.push(request);
      return new Response(null, { status: 204 });
    },
  };
  return { fn, requests };
}

describe('scheduled functions on the local server', () => {
  it('runs a function on its schedule with the request Netlify sends, until stopped', async () => {
    const { fn, requests } = recorder('* * * * * *'); // every second (croner's seconds field)
    const stop = startSchedules('http://localhost:4321', [fn], {});
    await expect.poll(() => requests.length, { timeout: 3000 }).toBeGreaterThan(0);
    stop();
    const seen = requests.length;
    const [request] = requests;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('http://localhost:4321/.netlify/functions/tidy-up');
    const body = (await request?.json()) as { next_run: string };
    expect(Date.parse(body.next_run)).toBeGreaterThan(Date.now() - 1000);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(requests.length).toBe(seen);
  });

  it('keeps the timers off when LOCAL_SCHEDULES=off, and runs one at once on request', async () => {
    const { fn, requests } = recorder('* * * * * *');
    const stop = startSchedules('http://localhost:4321', [fn], { LOCAL_SCHEDULES: 'off' });
    const response = await runScheduled('http://localhost:4321', fn);
    stop();
    expect(response.status).toBe(204);
    expect(requests).toHaveLength(1);
  });
});
