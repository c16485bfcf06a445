/**
 * Netlify's scheduled functions, run locally on their own schedules (UTC), as Netlify runs them in a deploy.
 * Each run gets the request Netlify sends: a POST whose JSON body names the next run. A run still going when
 * the next is due is skipped rather than doubled, as a scheduled function is never run twice at once.
 * LOCAL_SCHEDULES=off keeps the timers off (tests start a run themselves; see runScheduled).
 */
import { Cron } from 'croner';
import type { ScheduledFunction } from './functions';

/** The request Netlify sends a scheduled function. */
export function scheduledRequest(origin: string, fn: ScheduledFunction, nextRun: Date | null): Request {
  return new Request(`${origin}/.netlify/functions/${fn.name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ next_run: nextRun?.toISOString() ?? null }),
  });
}

/** One run now, as `netlify functions:invoke` does; the answer's status and body are the run's outcome. */
export async function runScheduled(origin: string, fn: ScheduledFunction): Promise<Response> {
  return fn.handler(scheduledRequest(origin, fn, new Cron(fn.config.schedule, { timezone: 'UTC' }).nextRun()));
}

/** Starts every schedule; the function returned stops them. */
export function startSchedules(origin: string, functions: ScheduledFunction[], env: NodeJS.ProcessEnv = process.env): () => void {
  if (env.LOCAL_SCHEDULES === 'off') return () => {};
  const jobs = functions.map(
    (fn) =>
      new Cron(fn.config.schedule, { timezone: 'UTC', protect: true, name: fn.name }, async (job: Cron) => {
        try {
          const response = await fn.handler(scheduledRequest(origin, fn, job.nextRun()));
          if (!response.ok) console.error(`[schedule] ${fn.name} answered ${response.status}: ${await response.text()}`);
        } catch (error) {
          console.error(`[schedule] ${fn.name} failed:`, error);
        }
      }),
  );
  return () => {
    for (const job of jobs) job.stop();
  };
}
