/**
 * A product image: the cover's AVIF/WebP <picture> when the build made one, else the plain image address
 * (products known only to the database). Renders as plain HTML in static pages and inside islands alike.
 */
import type { Product } from './product';

interface Props {
  product: Pick<Product, 'imageUrl' | 'cover'>;
  alt: string;
  /** How wide the image shows, for the browser to pick a size. */
  sizes: string;
  className?: string;
  priority?: boolean;
}

export default function CoverImage({ product, alt, sizes, className, priority = false }: Props) {
  const { cover } = product;
  const loading = priority ? ({ fetchPriority: 'high' } as const) : ({ loading: 'lazy', decoding: 'async' } as const);
  if (!cover) return <img src={product.imageUrl} alt={alt} width="800" height="800" className={className} {...loading} />;
  return (
    <picture>
      {cover.sources.map((source) => (
        <source key={source.type} type={source.type} srcSet={source.srcset} sizes={sizes} />
      ))}
      <img src={cover.src} alt={alt} width={cover.width} height={cover.height} className={className} {...loading} />
    </picture>
  );
}
