import { chromium } from 'playwright-core';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
async function trace(path) {
  const ctx = await b.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true });
  const p = await ctx.newPage();
  const cdp = await ctx.newCDPSession(p);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  const events = [];
  cdp.on('Tracing.dataCollected', (e) => events.push(...e.value));
  const done = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
  await cdp.send('Tracing.start', { categories: 'devtools.timeline,disabled-by-default-devtools.timeline', transferMode: 'ReportEvents' });
  await p.goto('http://localhost:4601' + path, { waitUntil: 'load' });
  await p.waitForTimeout(3000);
  await cdp.send('Tracing.end');
  await done;
  const tasks = events.filter((e) => e.name === 'RunTask' && e.dur > 50000);
  // main thread: thread with most RunTask of renderer
  const sums = {};
  for (const e of events) if (e.ph === 'X' && e.dur && ['Layout','UpdateLayoutTree','Paint','ParseHTML','EvaluateScript','v8.compile','FunctionCall','ParseAuthorStyleSheet','Decode Image','ImageDecodeTask','PrePaint','Layerize','Commit','HitTest','RasterTask','ScheduleStyleRecalculation'].includes(e.name)) { const k = e.name + '@' + e.tid; sums[k] = (sums[k] || 0) + e.dur / 1000; }
  console.log(path, 'long RunTasks (ms):', tasks.map((t) => Math.round(t.dur / 1000)).join(' '));
  console.log('  ', Object.entries(sums).filter(([, v]) => v > 20).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${Math.round(v)}`).join(', '));
  await ctx.close();
}
for (let i = 0; i < 2; i++) for (const path of ['/store/product/book-10-reasons', '/book', '/zero-js-reference']) await trace(path);
await b.close();
