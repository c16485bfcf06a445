/**
 * Registers `client:intent` (intent.ts) with Astro, and finishes the built pages in two ways:
 *
 * - Valid HTML: Astro writes its island rule as a `<style>` element before the first island, inside `<body>`,
 *   where HTML allows no `style` element (the W3C checker reports it). The same rule is in the site's
 *   stylesheet in `<head>` (src/styles/global.css), so the build takes the element out of every page.
 * - One layout, not several: Astro writes the islands' runtime (the `astro-island` element and the client
 *   directives) as inline scripts before the first island, in the middle of the page. An inline script must
 *   wait for the stylesheet, so the parser stops there until it arrives and the browser styles and lays the
 *   page out once for each part it parsed in between: on a phone, several long tasks where a page without
 *   script has one. At the end of `<body>` the scripts run once everything is parsed; the islands upgrade
 *   then (a custom element defined later upgrades the elements already there), and none of them hydrates
 *   before that in any case (`client:intent` waits for the visitor, `client:load` for its module).
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';

/** Astro's island rule, exactly as it writes it into a page. */
export const ASTRO_ISLAND_STYLE = '<style>astro-island,astro-slot,astro-static-slot{display:contents}</style>';

/** An inline script of Astro's island runtime: the element's definition, or a client directive's. */
const ISLAND_RUNTIME_SCRIPT = /<script>(?:(?!<\/script>)[\s\S])*?(?:customElements\.define\("astro-island"|\(self\.Astro\|\|\(self\.Astro=\{\}\)\)\.)(?:(?!<\/script>)[\s\S])*<\/script>/g;

/** An island told to wait for its children to be parsed (before the runtime that reads it had moved). */
const AWAITS_CHILDREN = /(<astro-island\b[^>]*) await-children(?=[\s>])/g;

/**
 * The page with the islands' runtime scripts moved, in their order, to the end of `<body>`. Every island is
 * whole by then, so none is told to wait for its children: one that waits while the page is still loading
 * starts only at DOMContentLoaded, after every module script, and a click before that would not be held.
 */
export function islandRuntimeLast(html: string): string {
  const end = html.lastIndexOf('</body>');
  if (end < 0) return html;
  const beforeEnd = html.slice(0, end);
  const scripts = beforeEnd.match(ISLAND_RUNTIME_SCRIPT);
  if (!scripts) return html;
  const rest = beforeEnd.replace(ISLAND_RUNTIME_SCRIPT, '').replace(AWAITS_CHILDREN, '$1');
  return `${rest}${scripts.join('')}${html.slice(end)}`;
}

/** What the build does to each page. */
export function finishPage(html: string): string {
  return islandRuntimeLast(html.replaceAll(ASTRO_ISLAND_STYLE, ''));
}

async function htmlFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile() && entry.name.endsWith('.html')).map((entry) => join(entry.parentPath, entry.name));
}

export function intentHydration(): AstroIntegration {
  return {
    name: 'intent-hydration',
    hooks: {
      'astro:config:setup': ({ addClientDirective }) => {
        addClientDirective({ name: 'intent', entrypoint: fileURLToPath(new URL('./intent.ts', import.meta.url)) });
      },
      'astro:build:done': async ({ dir, logger }) => {
        let pages = 0;
        for (const file of await htmlFiles(fileURLToPath(dir))) {
          const html = await readFile(file, 'utf8');
          const finished = finishPage(html);
          if (finished === html) continue;
          await writeFile(file, finished);
          pages += 1;
        }
        logger.info(`island rule moved to the stylesheet and island runtime to the end of <body> on ${pages} page(s)`);
      },
    },
  };
}

declare module 'astro' {
  interface AstroClientDirectives {
    /** Hydrate on the visitor's intent or a hydrate signal; the value lists the product ids the island shows. */
    'client:intent'?: boolean | string;
  }
}
