/**
 * Draws the social cards after the build: every built page whose `og:image` points into the cards
 * folder gets its card there, with the title, type and section its own head declares. Reading the
 * built pages keeps one source for each page's title and makes a card for every new indexable page. A card
 * whose inputs have not changed since a build before is taken from Astro's cache folder (card-cache.ts).
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { SITE } from '../../config/site';
import { cardCache } from './card-cache';
import { SOCIAL_CARD, cardShowsCover } from './card-path';
import { coverFiles } from './cover';
import { renderSocialCard } from './render-card';

const ENTITIES: Record<string, string> = { amp: '&', quot: '"', '#39': "'", '#x27': "'", lt: '<', gt: '>' };
const decode = (text: string) => text.replace(/&(amp|quot|#39|#x27|lt|gt);/g, (_, name: string) => ENTITIES[name]!);

/** The content of `<meta property="…">` in a page's head. */
export function metaProperty(html: string, property: string): string | undefined {
  const tag = html.match(new RegExp(`<meta\\b[^>]*\\bproperty="${property.replace(/[.:]/g, '\\$&')}"[^>]*>`))?.[0];
  const content = tag?.match(/\bcontent="([^"]*)"/)?.[1];
  return content === undefined ? undefined : decode(content);
}

/** The page's title as the card shows it: without the ` | Awesome Catholic Kids` every head title ends in. */
export const cardTitle = (ogTitle: string) => ogTitle.replace(new RegExp(`\\s*\\|\\s*${SITE.name}$`), '');

async function htmlFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile() && entry.name.endsWith('.html')).map((entry) => join(entry.parentPath, entry.name));
}

export function socialCards(): AstroIntegration {
  let cacheDir: URL | undefined;
  return {
    name: 'social-cards',
    hooks: {
      'astro:config:done': ({ config }) => {
        cacheDir = config.cacheDir;
      },
      'astro:build:done': async ({ dir, logger }) => {
        const out = fileURLToPath(dir);
        const coverFor = coverFiles();
        const cache = cardCache(fileURLToPath(new URL('social-cards/', cacheDir)));
        const started = Date.now();
        const drawn = new Set<string>();
        for (const file of await htmlFiles(out)) {
          const html = await readFile(file, 'utf8');
          const image = metaProperty(html, 'og:image');
          const title = metaProperty(html, 'og:title');
          if (!image || !title) continue;
          const { pathname, host } = new URL(image);
          if (!pathname.startsWith(`${SOCIAL_CARD.folder}/`) || drawn.has(pathname)) continue;
          const type = metaProperty(html, 'og:type') ?? 'website';
          const section = metaProperty(html, 'article:section');
          const content = {
            title: cardTitle(title),
            eyebrow: section ? `Blog · ${section}` : undefined,
            host,
            coverFile: cardShowsCover(type) ? coverFor(new URL(metaProperty(html, 'og:url') ?? image).pathname) : undefined,
          };
          const png = await cache.card(content, () => renderSocialCard(content));
          const target = join(out, pathname);
          await mkdir(dirname(target), { recursive: true });
          await writeFile(target, png);
          drawn.add(pathname);
        }
        logger.info(`${drawn.size} social cards (${cache.reused} unchanged, from the cache) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      },
    },
  };
}
