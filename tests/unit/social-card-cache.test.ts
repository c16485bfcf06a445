/**
 * The social cards kept between builds: a card whose words and cover are unchanged is taken from the cache, not
 * drawn again; a changed title, eyebrow or cover file draws a new one.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cardCache } from '../../src/features/social-card/card-cache';

describe('the social card cache', () => {
  it('reuses a card drawn from the same inputs, and draws anew when any of them changes', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'cards-'));
    const cover = join(folder, 'cover.svg');
    writeFileSync(cover, '<svg/>');
    let drawn = 0;
    const draw = async () => Buffer.from(`card ${++drawn}`);
    const content = { title: 'Catholic books for toddlers', host: 'example.com.au', coverFile: cover };

    // A later build: a new cache over the same folder.
    expect((await cardCache(folder).card(content, draw)).toString()).toBe('card 1');
    const later = cardCache(folder);
    expect((await later.card(content, draw)).toString()).toBe('card 1');
    expect(later.reused).toBe(1);

    expect((await later.card({ ...content, title: 'Catholic books for babies' }, draw)).toString()).toBe('card 2');
    expect((await later.card({ ...content, eyebrow: 'Blog · Faith' }, draw)).toString()).toBe('card 3');
    writeFileSync(cover, '<svg width="1"/>');
    expect((await cardCache(folder).card(content, draw)).toString()).toBe('card 4');
    expect(drawn).toBe(4);
  });
});
