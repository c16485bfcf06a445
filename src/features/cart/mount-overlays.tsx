/** Renders the overlays (ShopOverlays) into their container, on first need (overlays.ts). */
import { createRoot } from 'react-dom/client';
import ShopOverlays from './ShopOverlays';

export function mountOverlays(container: HTMLElement): void {
  createRoot(container).render(<ShopOverlays />);
}
