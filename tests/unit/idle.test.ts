import { afterEach, describe, expect, it, vi } from 'vitest';
import { afterFirstPaint, yieldToMain } from '@/lib/idle';

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

describe('starting after the first paint', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  function pageIn(visibilityState: 'visible' | 'hidden') {
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal('document', { visibilityState });
    vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => frames.push(callback));
    return frames;
  }

  it('waits for the frame to be painted, then runs in a task of its own', async () => {
    vi.useFakeTimers();
    const frames = pageIn('visible');
    const task = vi.fn();
    afterFirstPaint(task);
    await vi.runAllTimersAsync();
    expect(task).not.toHaveBeenCalled();
    expect(frames).toHaveLength(1);
    frames[0]?.(0);
    expect(task).not.toHaveBeenCalled();
    await vi.runAllTimersAsync();
    expect(task).toHaveBeenCalledOnce();
  });

  it('does not wait for a frame a hidden page never paints', async () => {
    vi.useFakeTimers();
    const frames = pageIn('hidden');
    const task = vi.fn();
    afterFirstPaint(task);
    await vi.runAllTimersAsync();
    expect(task).toHaveBeenCalledOnce();
    expect(frames).toHaveLength(0);
  });
});
