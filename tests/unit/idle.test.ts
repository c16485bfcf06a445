import { afterEach, describe, expect, it, vi } from 'vitest';
import { yieldToMain } from '@/lib/idle';

describe('yielding to the main thread', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it("uses the browser's scheduler.yield() where there is one", async () => {
    const scheduler = { yield: vi.fn(() => Promise.resolve()) };
    vi.stubGlobal('scheduler', scheduler);
    await yieldToMain();
    expect(scheduler.yield).toHaveBeenCalledOnce();
  });

  it('else continues in a new task, not in the same one', async () => {
    vi.useFakeTimers();
    let continued = false;
    const yielded = yieldToMain().then(() => {
      continued = true;
    });
    await Promise.resolve();
    expect(continued).toBe(false);
    await vi.runAllTimersAsync();
    await yielded;
    expect(continued).toBe(true);
  });
});
