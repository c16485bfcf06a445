/**
 * Draws one social card (1200×630 PNG): the page's title in the site's colours and Nunito, the site's
 * name and address, and the book cover where the page is about the book. satori lays the card out as
 * SVG, resvg turns it into a PNG; the font comes from an installed package, so nothing is fetched.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Resvg } from '@resvg/resvg-js';
import satori from 'satori';
import { SITE } from '../../config/site';
import { SOCIAL_CARD } from './card-path';

export interface CardContent {
  title: string;
  /** A short line above the title (a post's category). */
  eyebrow?: string;
  /** The site's address as shown on the card (`awesomecatholickids.com.au`). */
  host: string;
  /** SVG, PNG or JPEG file drawn on the right; none for a card with the title alone. */
  coverFile?: string;
}

const COLOURS = { cream: '#fff8ee', navy: '#1e3a5f', gold: '#e0a526', goldDark: '#8a5d00', sky: '#cfe3f2' } as const;

const require = createRequire(import.meta.url);
const font = (weight: 400 | 800) => readFileSync(require.resolve(`@fontsource/nunito/files/nunito-latin-${weight}-normal.woff`));
let fonts: Parameters<typeof satori>[1]['fonts'] | undefined;
const loadFonts = () =>
  (fonts ??= [
    { name: 'Nunito', data: font(400), weight: 400, style: 'normal' },
    { name: 'Nunito', data: font(800), weight: 800, style: 'normal' },
  ]);

const PADDING = 64;
const COVER = 440;
const GAP = 48;
const BAR = 14;

const MIME: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg' };
const covers = new Map<string, string>();
/** The cover as a data URI, drawn once: an SVG cover is rasterised at card size, so each card only places a bitmap. */
function coverUri(file: string): string {
  const cached = covers.get(file);
  if (cached) return cached;
  const extension = file.split('.').pop()!.toLowerCase();
  const uri =
    extension === 'svg'
      ? `data:image/png;base64,${new Resvg(readFileSync(file), { fitTo: { mode: 'width', value: COVER } }).render().asPng().toString('base64')}`
      : MIME[extension]
        ? `data:${MIME[extension]};base64,${readFileSync(file).toString('base64')}`
        : undefined;
  if (!uri) throw new Error(`Social card cover must be SVG, PNG or JPEG: ${file}`);
  covers.set(file, uri);
  return uri;
}

/** Longer titles get a smaller size so every title fits in at most four lines. */
function titleFontSize(title: string, withCover: boolean): number {
  const perLine = withCover ? 1 : 1.6;
  if (title.length <= 28 * perLine) return 68;
  if (title.length <= 48 * perLine) return 58;
  if (title.length <= 70 * perLine) return 48;
  return 40;
}

type Node = { type: string; props: Record<string, unknown> & { style?: Record<string, unknown>; children?: unknown } };
const el = (type: string, style: Record<string, unknown>, children?: unknown, extra: Record<string, unknown> = {}): Node => ({
  type,
  props: { style, children, ...extra },
});

function layout({ title, eyebrow, host, coverFile }: CardContent): Node {
  const cover = coverFile ? coverUri(coverFile) : undefined;
  const inner = { width: SOCIAL_CARD.width - 2 * PADDING, height: SOCIAL_CARD.height - 2 * PADDING - BAR };
  const textWidth = cover ? inner.width - COVER - GAP : inner.width;
  const text = el('div', { display: 'flex', flexDirection: 'column', justifyContent: 'space-between', width: textWidth, height: inner.height }, [
    el('div', { display: 'flex', alignItems: 'center', fontSize: 30, fontWeight: 800, color: COLOURS.navy }, [
      el('div', { width: 18, height: 18, borderRadius: 9, background: COLOURS.gold, marginRight: 14 }),
      SITE.name,
    ]),
    el('div', { display: 'flex', flexDirection: 'column' }, [
      ...(eyebrow ? [el('div', { fontSize: 28, fontWeight: 800, color: COLOURS.goldDark, marginBottom: 16 }, eyebrow)] : []),
      el('div', { fontSize: titleFontSize(title, Boolean(cover)), fontWeight: 800, lineHeight: 1.12, color: COLOURS.navy }, title),
    ]),
    el('div', { display: 'flex', fontSize: 26, color: '#334155' }, host),
  ]);
  const body = el('div', { display: 'flex', flexGrow: 1, padding: PADDING, alignItems: 'center', justifyContent: 'space-between' }, [
    text,
    ...(cover ? [el('img', { flexShrink: 0, width: COVER, height: COVER, borderRadius: 24 }, undefined, { src: cover, width: COVER, height: COVER })] : []),
  ]);
  return el(
    'div',
    {
      display: 'flex',
      flexDirection: 'column',
      width: SOCIAL_CARD.width,
      height: SOCIAL_CARD.height,
      fontFamily: 'Nunito',
      background: `linear-gradient(135deg, ${COLOURS.cream} 0%, ${COLOURS.sky} 100%)`,
    },
    [body, el('div', { width: SOCIAL_CARD.width, height: BAR, background: COLOURS.gold })],
  );
}

export async function renderSocialCard(content: CardContent): Promise<Buffer> {
  // satori takes React-element-shaped objects; plain objects avoid a JSX build step here.
  const svg = await satori(layout(content) as unknown as Parameters<typeof satori>[0], { width: SOCIAL_CARD.width, height: SOCIAL_CARD.height, fonts: loadFonts() });
  return new Resvg(svg, { fitTo: { mode: 'original' } }).render().asPng();
}
