/** Keeps the header's cart link (CartLink.astro) in step with the cart: badge and accessible name. */
import { $itemCount } from './store';

const cartLinkLabel = (count: number) => (count > 0 ? `Cart, ${count} item${count === 1 ? '' : 's'}` : 'Cart');

export function showCartCount(): void {
  $itemCount.subscribe((count) => {
    for (const link of document.querySelectorAll<HTMLAnchorElement>('[data-cart-link]')) {
      link.setAttribute('aria-label', cartLinkLabel(count));
      const badge = link.querySelector<HTMLElement>('[data-testid="cart-badge"]');
      if (!badge) continue;
      badge.textContent = String(count);
      badge.hidden = count <= 0;
    }
  });
}
