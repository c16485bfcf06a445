import { describe, expect, it } from 'vitest';
import { scriptTimeByFile } from '../audit/startup-profile';

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
