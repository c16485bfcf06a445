import { describe, expect, it } from 'vitest';
import { pageChunkName } from '@/lib/hydration/page-chunk';

/** A module graph from importer lists: id → the ids that import it statically. */
const graph = (importers: Record<string, string[]>) => ({ getModuleInfo: (id: string) => (id in importers ? { importers: importers[id]! } : null) });

describe('the page scripts’ one chunk', () => {
  const layout = '/src/layouts/BaseLayout.astro?astro&type=script&index=0&lang.ts';
  const offers = '/src/features/catalog/LiveOffers.astro?astro&type=script&index=0&lang.ts';
  const modules = graph({
    [layout]: [],
    [offers]: [],
    '/src/features/cart/cart-link.ts': [layout],
    '/src/features/cart/store.ts': ['/src/features/cart/cart-link.ts', '/src/features/cart/CartPage.tsx'],
    '/src/features/cart/CartPage.tsx': [],
    '/src/features/account/session.ts': [],
    '/src/features/a.ts': ['/src/features/b.ts'],
    '/src/features/b.ts': ['/src/features/a.ts'],
  });

  it('takes what a page script imports, directly or through other modules, and the layout’s script itself', () => {
    expect(pageChunkName('/src/features/cart/cart-link.ts', modules)).toBe('page');
    expect(pageChunkName('/src/features/cart/store.ts', modules)).toBe('page');
    expect(pageChunkName(layout, modules)).toBe('page');
  });

  it('leaves every other page script a file of its own, importing the chunk', () => {
    expect(pageChunkName(offers, modules)).toBeNull();
  });

  it('leaves to the bundler what only an island or an import on demand reaches, and ends on an import cycle', () => {
    expect(pageChunkName('/src/features/cart/CartPage.tsx', modules)).toBeNull();
    expect(pageChunkName('/src/features/account/session.ts', modules)).toBeNull();
    expect(pageChunkName('/src/features/a.ts', modules)).toBeNull();
  });
});
