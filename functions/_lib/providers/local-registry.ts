/**
 * What the local server hands the functions it runs (its CDN cache's purge, its site rebuild): kept on the process
 * under a well-known symbol, so any copy of a provider's module (a function bundled apart, a test's import) reaches
 * the same ones.
 */
export function localRegistry<T>(name: string): { members: () => Set<T>; register: (member: T) => () => void } {
  const key = Symbol.for(name);
  const members = (): Set<T> => {
    const holder = globalThis as unknown as Record<symbol, Set<T> | undefined>;
    holder[key] ??= new Set();
    return holder[key];
  };
  return {
    members,
    register(member) {
      members().add(member);
      return () => void members().delete(member);
    },
  };
}
