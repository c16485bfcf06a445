/** What the cart page and checkout show when there is nothing in the cart. */
export default function EmptyCart() {
  return (
    <div className="py-16 text-center">
      <h2 className="text-2xl font-bold">Your cart is empty</h2>
      <a href="/store" className="btn-primary mt-6">
        Browse Our Store
      </a>
    </div>
  );
}
