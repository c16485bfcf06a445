/**
 * "Email me when it's available" on a book that is out of stock: the address goes to /api/send-notification
 * behind the same bot-check as the newsletter, onto the book's waiting list; the shopper gets one email when the
 * publisher puts the book back in stock. The field is left to the browser (not React state), so an address
 * typed before the island hydrates is the one sent.
 */
import { useEffect, useId, useRef, useState, type SubmitEvent } from 'react';
import { HUMAN_CHECK_ACTIONS, LIMITS } from '@/config/constants';
import { toast } from '@/features/toast/store';
import { useHydrated } from '@/lib/use-hydrated';
import { BusyStatus, checkFields, TextField, verificationFailed } from './fields';
import { getHumanCheckToken, humanCheckEnabled, preloadHumanCheck } from './human-check';
import { fieldValue, submitForm } from './submit';

export default function BackInStockForm({ productId, title }: { productId: string; title: string }) {
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState('');
  const busyRef = useRef(false);
  // Submit stays disabled until hydration: a native submit before it would put the address in the address bar.
  const hydrated = useHydrated();

  useEffect(() => preloadHumanCheck(), []);

  async function ask(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    if (busyRef.current || !checkFields(form)) return;
    busyRef.current = true;
    setBusy(true);
    try {
      const token = await getHumanCheckToken(HUMAN_CHECK_ACTIONS.back_in_stock, form);
      if (!token && humanCheckEnabled()) console.warn('[back_in_stock] No bot-check token; asking anyway.');
      const email = fieldValue(form, 'email');
      const outcome = await submitForm({ type: 'back_in_stock', data: { email, productId }, ...(token && { turnstileToken: token }) });
      if (outcome === 'stored' || outcome === 'duplicate') {
        setDone(`We'll email ${email} once when ${title} is available.`);
        form.reset();
      } else if (outcome === 'refused') {
        verificationFailed();
      } else {
        toast({ title: 'We could not add you to the list', description: 'Please try again later.', variant: 'error' });
      }
    } finally {
      busyRef.current = false;
      setBusy(false);
    }
  }

  return (
    <form className="rounded-2xl bg-white p-4 ring-1 ring-slate-200" onSubmit={ask} aria-label={`Email me when ${title} is available`}>
      <p className="font-semibold text-navy">Out of stock for now. Leave your email and we'll tell you when it's back.</p>
      <div className="mt-3 flex flex-col gap-3 sm:flex-row sm:items-end">
        <TextField id={`${id}-email`} label="Email address" className="flex-1" type="email" name="email" autoComplete="email" required maxLength={LIMITS.emailMaxLength} />
        <button type="submit" className="btn-primary shrink-0 aria-disabled:cursor-wait aria-disabled:opacity-60" disabled={!hydrated} aria-disabled={busy || undefined}>
          {busy ? 'Sending...' : "Email me when it's available"}
        </button>
      </div>
      <BusyStatus busy={busy} text="Sending..." />
      <p role="status" className={done ? 'mt-3 text-sm font-semibold text-emerald-800' : 'sr-only'}>
        {done}
      </p>
    </form>
  );
}
