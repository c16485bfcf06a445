/**
 * Registers `client:intent` (intent.ts) with Astro, and keeps the built pages valid HTML: Astro writes its
 * island rule as a `<style>` element before the first island, inside `<body>`, where HTML allows no `style`
 * element (the W3C checker reports it). The same rule is in the site's stylesheet in `<head>`
 * (src/styles/global.css), so the build takes the element out of every page.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';

/** Astro's island rule, exactly as it writes it into a page. */
export const ASTRO_ISLAND_STYLE = '<style>astro-island,astro-slot,astro-static-slot{display:contents}</style>';

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
          if (!html.includes(ASTRO_ISLAND_STYLE)) continue;
          await writeFile(file, html.replaceAll(ASTRO_ISLAND_STYLE, ''));
          pages += 1;
        }
        logger.info(`island rule moved to the stylesheet on ${pages} page(s)`);
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
