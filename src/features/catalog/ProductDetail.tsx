/**
 * The product page's live part. Pre-rendered with the build-time product where there is one; for ids not
 * known at build it starts empty and loads by the id in the address.
 */
import { formatPrice } from '@/lib/format';
import PurchasePanel from './PurchasePanel';
import ProductCard from './ProductCard';
import { isInStock, type Product } from './product';
import { useLiveProduct, useRelatedProducts } from './use-live-catalog';

/** The id in /store/product/{id}; the page for ids unknown at build is served at any such address. */
function idFromAddress(): string {
  if (typeof window === 'undefined') return '';
  const match = window.location.pathname.match(/^\/store\/product\/([^/]+)/);
  return match?.[1] ? decodeURIComponent(match[1]) : '';
}

export default function ProductDetail({ initialProduct }: { initialProduct: Product | null }) {
  const id = initialProduct?.id ?? idFromAddress();
  const live = useLiveProduct(id, initialProduct);
  const product = live.data;
  const related = useRelatedProducts(live.status === 'ready' ? product : null);
  // No id at all is a missing product, not a loading one.
  if (!id && typeof window !== 'undefined') return <NotFound />;

  if (!product && live.status === 'loading') {
    return (
      <p className="py-20 text-center text-slate-700" role="status">
        Loading product details...
      </p>
    );
  }
  if (!product || (live.status === 'ready' && !live.data)) return <NotFound />;
  const inStock = isInStock(product);
  return (
    <>
      <div className="grid gap-10 md:grid-cols-2">
        <img src={product.imageUrl} alt={product.title} width="800" height="800" className="w-full rounded-2xl shadow-md ring-1 ring-slate-200" />
        <div>
          <h1 className="text-3xl font-extrabold md:text-4xl">{product.title}</h1>
          <p className="mt-3 text-3xl font-bold text-navy">
            {formatPrice(product.price)} <span className="text-base font-normal text-slate-600">AUD</span>
          </p>
          <p className={`mt-2 font-semibold ${inStock ? 'text-emerald-800' : 'text-red-800'}`}>{inStock ? 'In Stock' : 'Out of Stock'}</p>
          <p className="mt-4 leading-relaxed text-slate-700">{product.description}</p>
          <p className="mt-4 text-sm text-slate-600">
            Category: <span className="font-semibold">{product.category}</span>
          </p>
          <div className="mt-6">
            <PurchasePanel product={product} />
          </div>
        </div>
      </div>
      {related.data.length > 0 && (
        <section className="mt-16" aria-labelledby="related-heading">
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
    </>
  );
}

function NotFound() {
  return (
    <div className="py-20 text-center">
      <h1 className="text-3xl font-bold">Product Not Found</h1>
      <p className="mt-3 text-slate-700">Sorry, we couldn't find that product.</p>
      <a href="/store" className="btn-primary mt-6">
        Back to Store
      </a>
    </div>
  );
}
