import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

/** A component a module exports by name, loaded when it is first drawn (React's `lazy` takes only a default export). */
export function lazyNamed<M extends Record<K, ComponentType<never>>, K extends keyof M>(load: () => Promise<M>, name: K): LazyExoticComponent<M[K]> {
  return lazy(async () => ({ default: (await load())[name] }));
}
