/** Renders the toasts (Toaster) into the overlays' container, on first need (overlays.ts). */
import { createRoot } from 'react-dom/client';
import Toaster from '@/features/toast/Toaster';

export function mountOverlays(container: HTMLElement): void {
  createRoot(container).render(<Toaster />);
}
