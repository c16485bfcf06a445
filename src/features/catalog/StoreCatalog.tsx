/**
 * The store grid with search. Rendered at build with the catalog (indexable without JavaScript), then
 * refreshed with live price and stock. The search term lives in the `search` query parameter. Its purchase
 * buttons are markup that the purchase controls answer (src/features/cart/purchase-controls.ts), live or not.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import ProductCard, { ProductCardSkeleton } from './ProductCard';
import { matchesSearch, type Product } from './product';
import { useLiveProducts } from './use-live-catalog';

const SKELETON_CARDS = 3;

function readSearchParam(): string {
  return typeof window === 'undefined' ? '' : (new URLSearchParams(window.location.search).get('search') ?? '');
}

export default function StoreCatalog({ initialProducts }: { initialProducts: Product[] }) {
  const live = useLiveProducts(initialProducts);
  const [term, setTerm] = useState('');
  const search = useRef<HTMLInputElement>(null);
  // A search in the address wins over the empty box; without one, whatever the visitor typed before the grid
  // was live (it hydrates when they reach for the box) is the search.
  useEffect(() => {
    const start = readSearchParam() || search.current?.value;
    if (start) setTerm(start);
  }, []);

  useEffect(() => {
    const url = new URL(window.location.href);
    if (term) url.searchParams.set('search', term);
    else url.searchParams.delete('search');
    window.history.replaceState(null, '', url);
  }, [term]);

  const products = useMemo(() => live.data.filter((p) => matchesSearch(p, term)), [live.data, term]);
  const showSkeleton = live.status === 'loading' && live.data.length === 0;

  return (
    <div>
      {/* biome-ignore lint/a11y/useSemanticElements: <search> is not yet announced by every screen reader; the role is. */}
      <form role="search" className="mx-auto max-w-xl" onSubmit={(e) => e.preventDefault()}>
        <label htmlFor="store-search" className="sr-only">
          Search products
        </label>
        <input
          id="store-search"
          ref={search}
          type="search"
          className="field rounded-full px-5 py-3"
          placeholder="Search Catholic children's books..."
          value={term}
          onChange={(e) => setTerm(e.target.value)}
          maxLength={100}
        />
      </form>
      <div className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-3" aria-live="polite" aria-busy={live.status === 'loading'}>
        {showSkeleton &&
          Array.from({ length: SKELETON_CARDS }, (_, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: identical placeholders.
            <ProductCardSkeleton key={i} />
          ))}
        {products.map((product, i) => (
          // The first cover is the page's largest paint on a phone: fetched at once, not when laid out.
          <ProductCard key={product.id} product={product} priority={i === 0} />
        ))}
      </div>
      {!showSkeleton && products.length === 0 && (
        <div className="py-12 text-center">
          <p className="text-lg text-slate-700">No products found matching your search</p>
          <button type="button" className="btn-secondary mt-4" onClick={() => setTerm('')}>
            Clear Search
          </button>
        </div>
      )}
    </div>
  );
}
