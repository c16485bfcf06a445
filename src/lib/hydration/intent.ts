/**
 * `client:intent`: an island that is not needed to read the page hydrates when the visitor shows they are
 * about to use it (a pointer over it, a touch, focus, a key) or when asked to (signals.ts), never at load.
 * So nothing but painting happens before the first tap, and React is not even downloaded on a page nobody
 * touches. Nothing the visitor does in the meantime is lost: a click that lands before the island is live is
 * held and replayed on the same element once it is, and what was typed into its fields is handed to it.
 *
 * The directive's value lists the product ids the island shows (`client:intent={product.id}`), so a change
 * in one product's live price or stock hydrates only the islands that show it.
 *
 * The purchase controls (`data-purchase`: Add to Cart, Buy Now, quantity, the wishlist's sign-in prompt) work
 * without React (src/features/cart/purchase-controls.ts), so pointing at them or tapping them is no reason to
 * fetch React, and neither is a link. A click that script answered (it prevents the default) is not held; one
 * that comes before the script has loaded is held and replayed as any other.
 */
import type { ClientDirective } from 'astro';
import { HYDRATE_EVENT, signalConcerns } from './signals';

const INTENT_EVENTS = ['pointerover', 'pointerdown', 'touchstart', 'focusin', 'keydown'] as const;
/** What a held click is replayed on: the controls React handles (links work without it). */
const CONTROLS = 'button, [role="button"], input[type="checkbox"], input[type="radio"], input[type="submit"]';
const TYPED_FIELDS = 'input:not([type="checkbox"]):not([type="radio"]):not([type="hidden"]), textarea';
/** What works without the island: intent towards these starts nothing. */
const WITHOUT_REACT = '[data-purchase], a[href]';

/** Resolves once React has taken over the island's markup (hydration runs in a transition, after `hydrate()`). */
function rendered(island: HTMLElement, timeoutMs = 5000): Promise<void> {
  const taken = () => {
    const first = island.firstElementChild;
    return !first || Object.keys(first).some((key) => key.startsWith('__react'));
  };
  return new Promise((resolve) => {
    const started = performance.now();
    // Then one more task, so the first render's effects have run before anything is handed over.
    const check = () => (taken() || performance.now() - started > timeoutMs ? setTimeout(resolve, 0) : requestAnimationFrame(check));
    check();
  });
}

/**
 * Types `value` into a field as the visitor would, so the island's own change handler sees it. React may
 * have kept or reset the typed text while hydrating, and it only reports a change from what it last saw: so
 * the field is cleared through its own setter first, then given the text past it.
 */
function retype(field: HTMLInputElement | HTMLTextAreaElement, value: string): void {
  const prototype = field instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  field.value = '';
  Object.getOwnPropertyDescriptor(prototype, 'value')?.set?.call(field, value);
  field.dispatchEvent(new Event('input', { bubbles: true }));
}

const intent: ClientDirective = (load, options, island) => {
  let started = false;
  let live = false;
  const held: HTMLElement[] = [];
  const typed = new Map<HTMLInputElement | HTMLTextAreaElement, string>();

  const hold = (event: Event) => {
    if (live || event.defaultPrevented) return;
    const control = event.target instanceof Element ? event.target.closest<HTMLElement>(CONTROLS) : null;
    if (!control || !island.contains(control)) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    if (!held.includes(control)) held.push(control);
    void start();
  };
  const remember = (event: Event) => {
    if (!live && event.target instanceof Element && event.target.matches(TYPED_FIELDS)) {
      const field = event.target as HTMLInputElement | HTMLTextAreaElement;
      typed.set(field, field.value);
    }
  };
  const onSignal = (event: Event) => {
    if (signalConcerns(typeof options.value === 'string' ? options.value : '', (event as CustomEvent<readonly string[] | undefined>).detail)) void start();
  };

  const onIntent = (event: Event) => {
    if (!(event.target instanceof Element && event.target.closest(WITHOUT_REACT))) void start();
  };

  async function start() {
    if (started) return;
    started = true;
    for (const type of INTENT_EVENTS) island.removeEventListener(type, onIntent, true);
    window.removeEventListener(HYDRATE_EVENT, onSignal);
    const hydrate = await load();
    await hydrate();
    await rendered(island);
    live = true;
    island.removeEventListener('click', hold, true);
    island.removeEventListener('input', remember, true);
    for (const [field, value] of typed) if (field.isConnected) retype(field, value);
    // One click a task: React applies each click's state (a quantity raised) before the next click reads it.
    for (const control of held.splice(0)) {
      if (control.isConnected) control.click();
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  }

  for (const type of INTENT_EVENTS) island.addEventListener(type, onIntent, { capture: true, passive: true });
  island.addEventListener('click', hold, true);
  island.addEventListener('input', remember, true);
  window.addEventListener(HYDRATE_EVENT, onSignal);
};

export default intent;
