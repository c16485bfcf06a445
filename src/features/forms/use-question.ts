import { useEffect, useEffectEvent, useRef, useState } from 'react';

/**
 * A button that asks a question (a refund to confirm, an order to cancel) and the question in its place: `ask(value)`
 * opens it, `close()` closes it. The pressed button goes, taking focus to the page, so focus is given to `question`
 * (the question's first button) as it opens and to `button` as it closes; `buttonFor(value)`, where several ask.
 * When the answer then takes the button away (Mark as delivered, a buyer refunded), focus goes to the heading of the
 * section it was in (or to the section, where a label names it).
 */
export function useQuestion<T = true>() {
  const [asking, setAsking] = useState<T | null>(null);
  const [asked, setAsked] = useState<T | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  const question = useRef<HTMLButtonElement>(null);
  const before = useRef(asking);
  /** What this question last gave focus to, and the section it is in. */
  const held = useRef<{ element: HTMLElement; section: HTMLElement | null } | null>(null);
  const place = useEffectEvent(() => {
    const element = (asking === null ? button : question).current;
    if (document.activeElement !== document.body || !element) return;
    element.focus();
    held.current = { element, section: element.closest('section, article') };
  });
  useEffect(() => {
    if (before.current !== asking) place();
    before.current = asking;
  }, [asking]);
  // After every change drawn: if the answer took that button away (delivered, a buyer refunded), focus goes to the
  // heading of its section rather than to the page.
  useEffect(() => {
    if (!held.current || held.current.element.isConnected || document.activeElement !== document.body) return;
    const section = held.current.section?.isConnected ? held.current.section : null;
    const named = section?.getAttribute('aria-labelledby');
    // Its heading, or the section itself where a label names it.
    const target = named ? document.getElementById(named) : section;
    held.current = null;
    if (!target) return;
    target.tabIndex = -1;
    target.focus();
  });
  const ask = (value: T) => {
    setAsked(value);
    setAsking(value);
  };
  return { asking, ask, close: () => setAsking(null), button, question, buttonFor: (value: T) => (asked === value ? button : undefined) };
}
