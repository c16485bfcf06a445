/**
 * The product page's layout: image, title, the offer (price, stock, purchase; passed in), description and
 * category. No state of its own, so the pre-rendered page draws it as plain HTML and only the offer hydrates.
 */
import type { ReactNode } from 'react';
import type { Product } from './product';

export default function ProductSummary({ product, children }: { product: Pick<Product, 'title' | 'imageUrl' | 'description' | 'category'>; children?: ReactNode }) {
  return (
    <div className="grid gap-10 md:grid-cols-2">
      <img src={product.imageUrl} alt={product.title} width="800" height="800" fetchPriority="high" className="w-full rounded-2xl shadow-md ring-1 ring-slate-200" />
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
