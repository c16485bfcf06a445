/**
 * The blog's subscribe form: sends the address to /api/send-notification, which stores it and tells the
 * publisher. A missing bot-check token does not block a subscription; a token the server refuses does. The field is left to the browser
 * (not React state), so an address typed before the island hydrates is the one sent.
 */
import { useEffect, useId, useRef, useState, type SubmitEvent } from 'react';
import { HUMAN_CHECK_ACTIONS, LIMITS } from '@/config/constants';
import { toast } from '@/features/toast/store';
import { BusyStatus, checkFields, TextField, verificationFailed } from './fields';
import { useHydrated } from '@/lib/use-hydrated';
import { getHumanCheckToken, humanCheckEnabled, preloadHumanCheck } from './human-check';
import { fieldValue, submitForm } from './submit';

export default function NewsletterForm() {
  const id = useId();
  const [busy, setBusy] = useState(false);
  const busyRef = useRef(false);
  // Submit stays disabled until hydration: a native submit before it would put the visitor's details in the address bar.
  const hydrated = useHydrated();

  useEffect(() => preloadHumanCheck(), []);

  async function subscribe(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    if (busyRef.current || !checkFields(form)) return;
    busyRef.current = true;
    setBusy(true);
    try {
      const token = await getHumanCheckToken(HUMAN_CHECK_ACTIONS.newsletter, form);
      if (!token && humanCheckEnabled()) console.warn('[newsletter] No bot-check token; subscribing anyway.');

      const outcome = await submitForm({ type: 'newsletter', data: { email: fieldValue(form, 'email'), page: window.location.pathname }, ...(token && { turnstileToken: token }) });
      if (outcome === 'stored') {
        toast({ title: 'Successfully subscribed!', description: 'Thank you for joining our newsletter.', variant: 'success' });
        form.reset();
      } else if (outcome === 'duplicate') {
        toast({ title: "You're already subscribed!", description: 'No need to subscribe again.', variant: 'info' });
      } else if (outcome === 'refused') {
        verificationFailed();
      } else {
        toast({ title: 'Failed to subscribe', description: 'Please try again later.', variant: 'error' });
      }
    } finally {
      busyRef.current = false;
      setBusy(false);
    }
  }

  return (
    <form className="mb-3 text-left" onSubmit={subscribe} aria-label="Subscribe to the newsletter">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <TextField id={`${id}-email`} label="Email address" className="flex-1" type="email" name="email" autoComplete="email" required maxLength={LIMITS.emailMaxLength} />
        <button type="submit" className="btn-primary shrink-0 aria-disabled:cursor-wait aria-disabled:opacity-60" disabled={!hydrated} aria-disabled={busy || undefined}>
          {busy ? 'Subscribing...' : 'Subscribe'}
        </button>
      </div>
      <BusyStatus busy={busy} text="Subscribing..." />
    </form>
  );
}
