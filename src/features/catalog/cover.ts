/**
 * Covers through Astro's image pipeline: the JPEG or PNG beside a book file becomes AVIF and WebP at a few
 * widths, with the intrinsic size set so nothing shifts while it loads.
 */
import type { ImageMetadata } from 'astro';
import { getImage } from 'astro:assets';
import type { CoverPicture } from './product';

const WIDTHS = [320, 640, 960];
const MODERN_FORMATS = ['avif', 'webp'] as const;
/** The plain <img> source: WebP, which every browser the site supports reads. */
const FALLBACK = { format: 'webp', width: 640 } as const;

export async function coverPicture(image: ImageMetadata): Promise<CoverPicture> {
  const widths = WIDTHS.filter((w) => w <= image.width);
  const sources = await Promise.all(
    MODERN_FORMATS.map(async (format) => {
      const result = await getImage({ src: image, widths: widths.length ? widths : [image.width], format });
      return { type: `image/${format}`, srcset: result.srcSet.attribute };
    }),
  );
  const fallback = await getImage({ src: image, width: Math.min(FALLBACK.width, image.width), format: FALLBACK.format });
  return { src: fallback.src, width: image.width, height: image.height, sources };
}
