/**
 * The product page's layout: image, title, the offer (price, stock, purchase; passed in), description and
 * category. No state of its own, so the pre-rendered page draws it as plain HTML and only the offer hydrates.
 */
import type { ReactNode } from 'react';
import CoverImage from './CoverImage';
import type { Product } from './product';

interface Props {
  product: Pick<Product, 'title' | 'imageUrl' | 'cover' | 'description' | 'category'>;
  /** The cover's description, where the book file gives one. */
  imageAlt?: string;
  children?: ReactNode;
}

export default function ProductSummary({ product, imageAlt, children }: Props) {
  return (
    <div className="grid gap-10 md:grid-cols-2">
      <CoverImage product={product} alt={imageAlt ?? product.title} sizes="(min-width: 768px) 50vw, 100vw" className="w-full rounded-2xl shadow-md ring-1 ring-slate-200" priority />
      <div>
        <h1 className="text-3xl font-extrabold md:text-4xl">{product.title}</h1>
        <div className="mt-3">{children}</div>
        <p className="mt-6 leading-relaxed text-slate-700">{product.description}</p>
        <p className="mt-4 text-sm text-slate-600">
          Category: <span className="font-semibold">{product.category}</span>
        </p>
      </div>
    </div>
  );
}
