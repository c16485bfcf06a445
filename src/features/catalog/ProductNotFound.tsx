/** What the product page shows for an id the database does not know. */
export default function ProductNotFound() {
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
