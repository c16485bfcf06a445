/**
 * Start-up work split so that a slow phone paints and answers a tap in between: at 8× CPU slowdown a task of
 * 6 ms is already a long one.
 */

/**
 * Gives the browser its turn (a frame, a tap) before the rest of a start-up runs: `scheduler.yield()` where
 * the browser has it, so the rest keeps its place ahead of other queued work, else a new task.
 */
export function yieldToMain(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  return scheduler?.yield ? scheduler.yield() : new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Runs `task` in a task of its own after the browser has painted the page once: a page's start-up (menus, the
 * cart's badge, the buttons' listeners) waits one frame so the first paint never waits for it, which a slow
 * phone otherwise does for all of its scripts. A hidden page paints nothing, so there it runs at once.
 */
export function afterFirstPaint(task: () => void): void {
  if (document.visibilityState === 'hidden') setTimeout(task, 0);
  else requestAnimationFrame(() => setTimeout(task, 0));
}

/** The parts of `window` that wait reads: analytics passes its own, so its tests need no browser. */
export interface IdleWindow {
  document: { readyState: string };
  addEventListener(type: 'load', listener: () => void, options?: { once?: boolean }): void;
  setTimeout(callback: () => void, ms: number): unknown;
  requestIdleCallback?(callback: () => void, options?: { timeout: number }): unknown;
}

/**
 * Runs `task` once the page has loaded and the browser is idle (at most 2 s after load; 200 ms after it where
 * the browser has no idle callback, as Safari), so it never competes with the first paint.
 */
export function afterLoadWhenIdle(task: () => void, win: IdleWindow = window): void {
  const idle = () => (win.requestIdleCallback ? win.requestIdleCallback(task, { timeout: 2000 }) : win.setTimeout(task, 200));
  if (win.document.readyState === 'complete') idle();
  else win.addEventListener('load', idle, { once: true });
}
