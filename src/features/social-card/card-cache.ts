/**
 * Social cards kept between builds, each under the hash of everything it is drawn from: the card's words, the
 * cover file's bytes, and the drawing itself (this folder's code, the site's settings and the locked dependencies:
 * satori, resvg and the font). A card whose inputs are unchanged is the same PNG, so it is copied rather than drawn
 * again; any change draws it anew. Why: drawing the 42 cards is about 40 % of a build (8.8 s of 22 s on a quiet
 * machine, 117 s of 205 s on a busy one), and the rebuild after a review is published changes none of them. Kept in
 * Astro's cache folder, beside the optimised images Astro keeps there the same way.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CardContent } from './render-card';

/** What a card's drawing depends on besides its content, relative to this file. */
const DRAWN_WITH = ['./render-card.ts', './card-path.ts', './card-cache.ts', '../../config/site.ts', '../../../package-lock.json'];

let drawing: string | undefined;
const drawingHash = () => {
  drawing ??= DRAWN_WITH.reduce((hash, file) => hash.update(file).update(readFileSync(new URL(file, import.meta.url))), createHash('sha256')).digest('hex');
  return drawing;
};

interface CardCache {
  /** The card for `content`: from the cache, or drawn by `draw` and kept. */
  card(content: CardContent, draw: () => Promise<Buffer>): Promise<Buffer>;
  /** How many cards came from the cache. */
  readonly reused: number;
}

export function cardCache(folder: string): CardCache {
  const covers = new Map<string, string>();
  const coverHash = (file: string) => {
    const hash = covers.get(file) ?? createHash('sha256').update(readFileSync(file)).digest('hex');
    covers.set(file, hash);
    return hash;
  };
  let reused = 0;
  return {
    get reused() {
      return reused;
    },
    async card(content, draw) {
      const { coverFile, ...words } = content;
      const key = createHash('sha256')
        .update(drawingHash())
        .update(JSON.stringify(words))
        .update(coverFile ? coverHash(coverFile) : '')
        .digest('hex');
      const file = join(folder, `${key}.png`);
      const kept = await readFile(file).catch(() => undefined);
      if (kept) {
        reused += 1;
        return kept;
      }
      const png = await draw();
      // Written whole, then renamed: a build stopped half-way never leaves half a card to be reused.
      await mkdir(folder, { recursive: true });
      await writeFile(`${file}.${process.pid}.tmp`, png);
      await rename(`${file}.${process.pid}.tmp`, file);
      return png;
    },
  };
}
