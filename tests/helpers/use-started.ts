import { afterAll, beforeAll } from 'vitest';

/**
 * What a test file, or a describe block, starts before its tests and closes after them (a shop, a database), given
 * at once: the object answers for the started one, so the tests read it as they would a variable set in beforeAll.
 */
export function useStarted<T extends { close(): Promise<void> }>(start: () => Promise<T>): T {
  let current: T | undefined;
  beforeAll(async () => {
    current = await start();
  });
  afterAll(() => current?.close());
  return new Proxy({} as T, {
    get(_, key) {
      if (!current) throw new Error('Started only while the tests run: read it inside a test or a hook');
      const value = Reflect.get(current, key);
      return typeof value === 'function' ? value.bind(current) : value;
    },
  });
}
