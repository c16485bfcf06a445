/**
 * The first tap against any running copy of the shop, for comparing designs:
 *
 *   npx tsx tests/audit/first-tap-compare.ts http://localhost:4790 [--preload=<dist>/_astro:CartDrawer,ShopOverlays,…] [--runs=5]
 *
 * `--preload` names the build's chunk folder and the chunk name prefixes to fetch before the tap, besides
 * every island's code: React and the drawer ready, with hydration the only work left at the tap.
 */
import { readdirSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './chromium';
import { describeRuns, measureFirstTaps } from './first-tap';

const [baseUrl] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const option = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
if (!baseUrl) {
  console.error('Usage: npx tsx tests/audit/first-tap-compare.ts <base URL> [--preload=<dist>/_astro:Prefix,Prefix] [--runs=5]');
  process.exit(2);
}
const preloadOption = option('preload');
const preload = preloadOption
  ? (() => {
      const [folder, prefixes] = preloadOption.split(':') as [string, string];
      const wanted = prefixes.split(',');
      return readdirSync(folder)
        .filter((file) => file.endsWith('.js') && wanted.some((prefix) => file.startsWith(`${prefix}.`)))
        .map((file) => `/_astro/${file}`);
    })()
  : undefined;
if (preload) console.log(`preloading every island's code and ${preload.join(', ')}`);

const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
try {
  await measureFirstTaps(browser, baseUrl, {
    runs: Number(option('runs') ?? 5),
    preload: preload ?? undefined,
    onRow: (row) =>
      console.log(
        `${row.path} ${row.moment}: first tap ${describeRuns(row.firstMs)} [${row.firstMs.join(' ')}]; later tap ${describeRuns(row.laterMs)} [${row.laterMs.join(' ')}]${row.error ? ` — ${row.error}` : ''}`,
      ),
  });
} finally {
  await browser.close();
}
