import { afterEach, describe, expect, it } from 'vitest';
import { showFlashToast } from '@/features/toast/flash';
import { $toasts } from '@/features/toast/store';

/** sessionStorage as a Map: the browser's API surface this module uses. */
function memoryStorage(entries: Record<string, string> = {}): Storage {
  const map = new Map(Object.entries(entries));
  return {
    get length() {
      return map.size;
    },
    clear: () => map.clear(),
    getItem: (key) => map.get(key) ?? null,
    key: (index) => [...map.keys()][index] ?? null,
    removeItem: (key) => void map.delete(key),
    setItem: (key, value) => void map.set(key, value),
  };
}

const stored = (message: object) => memoryStorage({ flashToast: JSON.stringify(message) });

afterEach(() => $toasts.set([]));

describe('a toast carried to the next page', () => {
  it('is shown once by a page loaded after it was stored', () => {
    const storage = stored({ title: 'Successfully signed in!', setAt: 1_000 });
    showFlashToast(storage, 2_000);
    showFlashToast(storage, 2_000);
    expect($toasts.get().map((t) => [t.title, t.variant])).toEqual([['Successfully signed in!', 'success']]);
    expect(storage.getItem('flashToast')).toBeNull();
  });

  it('is left for the next page by the page that is redirecting (its overlays may hydrate late)', () => {
    const storage = stored({ title: 'Successfully signed in!', setAt: 2_000 });
    showFlashToast(storage, 1_000);
    expect($toasts.get()).toEqual([]);
    showFlashToast(storage, 3_000);
    expect($toasts.get()).toHaveLength(1);
  });

  it('drops an unreadable or malformed message without showing anything', () => {
    for (const storage of [memoryStorage({ flashToast: '{not json' }), memoryStorage({ flashToast: 'null' }), stored({ title: 42, setAt: 1 }), stored({ setAt: 1 })]) {
      showFlashToast(storage, 2_000);
      expect(storage.getItem('flashToast')).toBeNull();
    }
    expect($toasts.get()).toEqual([]);
  });

  it('does nothing, and throws nothing, where the browser blocks session storage', () => {
    expect(() => showFlashToast(null, 2_000)).not.toThrow();
    expect($toasts.get()).toEqual([]);
  });

  it('keeps only the variants it knows', () => {
    showFlashToast(stored({ title: 'Hello', variant: 'explode', setAt: 1 }), 2);
    expect($toasts.get()[0]?.variant).toBe('success');
  });
});
