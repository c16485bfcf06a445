import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

/** A component a module exports by name, loaded when it is first drawn (React's `lazy` takes only a default export). */
// biome-ignore lint/suspicious/noExplicitAny: as React's own `lazy`, any component; its props are kept by M[K].
export function lazyNamed<M extends Record<K, ComponentType<any>>, K extends keyof M>(load: () => Promise<M>, name: K): LazyExoticComponent<M[K]> {
  return lazy<M[K]>(async () => ({ default: (await load())[name] }));
}
