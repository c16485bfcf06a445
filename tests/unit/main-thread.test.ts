import { describe, expect, it } from 'vitest';
import { mainThreadOf, scriptTimeByFile, shopFunctionsBetween, withoutHash } from '../audit/main-thread';

const frame = (id: number, functionName: string, url: string, children: number[] = []) => ({ id, callFrame: { functionName, url }, children });

describe('start-up script time by file', () => {
  it("charges each sample to the nearest script file on its stack, leaves out idle and the browser's own time, biggest first", () => {
    const profile = {
      nodes: [
        frame(1, '(root)', '', [2, 3, 6, 7]),
        frame(2, '', 'http://localhost:4321/_astro/format.js', [4]),
        frame(3, '', 'http://localhost:4321/_astro/store.js', [5]),
        frame(4, 'DateTimeFormat', ''),
        frame(5, 'fetch', ''),
        frame(6, '(idle)', ''),
        frame(7, '(program)', ''),
      ],
      // Each sample's time is the gap to the next: 4, 2, 1 and 8 ms (microseconds in V8's profile).
      samples: [4, 4, 5, 6, 7],
      timeDeltas: [0, 4000, 2000, 1000, 8000],
    };
    expect([...scriptTimeByFile(profile)]).toEqual([
      ['/_astro/format.js', 6],
      ['/_astro/store.js', 1],
    ]);
  });
});

describe("the page's main thread in a trace", () => {
  const event = (name: string, ts: number, dur = 0, tid = 1, pid = 7) => ({ name, ph: name === 'firstContentfulPaint' || name === 'navigationStart' ? 'I' : 'X', pid, tid, ts, dur });
  it('counts style and layout from the navigation on, on the main thread only, and gives the tasks that follow', () => {
    const events = [
      { name: 'thread_name', ph: 'M', pid: 7, tid: 1, ts: 0, args: { name: 'CrRendererMain' } },
      { ...event('navigationStart', 1000), args: { data: { documentLoaderURL: 'http://localhost/book' } } },
      event('Layout', 500, 9000),
      event('UpdateLayoutTree', 2000, 3000),
      event('RecalculateStyles', 6000, 1000),
      event('Layout', 8000, 4000),
      event('Layout', 8000, 99_000, 2),
      event('firstContentfulPaint', 20_000),
      event('RunTask', 30_000, 60_000),
    ];
    const thread = mainThreadOf(events);
    expect(thread).toMatchObject({ styleMs: 4, layoutMs: 4, fcp: 20_000 });
    expect(thread.tasks).toEqual([{ ts: 30_000, dur: 60_000 }]);
  });

  it("charges a long task's samples to the shop's functions, not to other sites' scripts", () => {
    const profile = {
      startTime: 0,
      nodes: [
        { id: 1, callFrame: { functionName: '(root)', url: '' }, children: [2, 3] },
        { id: 2, callFrame: { functionName: 'drawLive', url: 'http://localhost/_astro/page.AbCd1234.js', lineNumber: 9 }, children: [4] },
        { id: 3, callFrame: { functionName: 'gtag', url: 'https://www.googletagmanager.com/gtag/js' } },
        { id: 4, callFrame: { functionName: 'querySelectorAll', url: '' } },
      ],
      // Taken at 1, 3, 6 and 10 ms.
      samples: [4, 2, 3, 2],
      timeDeltas: [1000, 2000, 3000, 4000],
    };
    expect([...shopFunctionsBetween(profile, '/book', 0, 7000)]).toEqual([['drawLive /_astro/page.js:10', 5]]);
    expect(withoutHash('/_astro/BaseLayout.astro_astro_type_script_index_0_lang.Cx_9aBcD.js')).toBe('/_astro/BaseLayout.astro_astro_type_script_index_0_lang.js');
  });
});
