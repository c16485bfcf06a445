/**
 * 'You May Also Like': up to three products from the same category, pre-rendered from the build-time
 * catalog and refreshed from the database once the section scrolls into view.
 */
import ProductCard from './ProductCard';
import type { Product } from './product';
import { useRelatedProducts } from './use-live-catalog';

export default function RelatedProducts({ product, initial }: { product: Pick<Product, 'id' | 'category'>; initial?: Product[] }) {
  const related = useRelatedProducts(product, initial);
  // The wrapper is always there: a `client:visible` island needs an element to watch, even with no products.
  return (
    <div className="mt-16">
      {related.data.length > 0 && (
        <section aria-labelledby="related-heading">
          <h2 id="related-heading" className="text-2xl font-bold">
            You May Also Like
          </h2>
          <div className="mt-6 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {related.data.map((p) => (
              <ProductCard key={p.id} product={p} />
            ))}
          </div>
        </section>
      )}
    </div>
  );
}
