import { builtPages } from './tests/audit/built-site';
import { measurePage } from './tests/audit/page-weight';
const pages = builtPages('dist');
const seen = new Set<string>();
const k = (n: number) => (n / 1024).toFixed(1);
for (const p of pages) {
  if (seen.has(p.kind)) continue;
  seen.add(p.kind);
  const w = measurePage('dist', p);
  console.log(
    p.kind.padEnd(10),
    p.path.padEnd(36),
    'start',
    k(w.js.raw),
    k(w.js.gzip),
    k(w.js.brotli),
    '| onUse',
    k(w.onUseJs.raw),
    k(w.onUseJs.gzip),
    k(w.onUseJs.brotli),
    '| lazy',
    k(w.lazyJs.raw),
    k(w.lazyJs.gzip),
    k(w.lazyJs.brotli),
  );
}
