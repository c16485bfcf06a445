/**
 * The blog's subscribe form (spec sections 2 and 5): stores the address with the anon key (insert only,
 * no row back), then tells the publisher. A missing bot-check token does not block a subscription.
 */
import { useEffect, useId, useRef, useState, type SubmitEvent } from 'react';
import { HUMAN_CHECK_ACTIONS, LIMITS } from '@/config/constants';
import { getSupabase } from '@/lib/supabase/client';
import { toast } from '@/features/toast/store';
import { BusyStatus, checkFields, useHydrated, TextField } from './fields';
import { getHumanCheckToken, humanCheckEnabled, preloadHumanCheck } from './human-check';
import { sendNotification } from './notify';

/** Postgres unique_violation: the address (in any letter case) is already subscribed. */
const DUPLICATE = '23505';

export default function NewsletterForm() {
  const id = useId();
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const busyRef = useRef(false);
  const hydrated = useHydrated();

  useEffect(() => preloadHumanCheck(), []);

  async function subscribe(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busyRef.current || !checkFields(event.currentTarget)) return;
    busyRef.current = true;
    setBusy(true);
    const address = email.trim();
    try {
      const token = await getHumanCheckToken(HUMAN_CHECK_ACTIONS.newsletter);
      if (!token && humanCheckEnabled()) console.warn('[newsletter] No bot-check token; subscribing anyway.');

      const { error } = await (await getSupabase()).from('newsletter_subscriptions').insert({ email: address });
      if (error) {
        if (error.code === DUPLICATE) {
          toast({ title: "You're already subscribed!", description: 'No need to subscribe again.', variant: 'info' });
        } else {
          console.error('[newsletter] Subscribing failed.', error);
          toast({ title: 'Failed to subscribe', description: 'Please try again later.', variant: 'error' });
        }
        return;
      }
      toast({ title: 'Successfully subscribed!', description: 'Thank you for joining our newsletter.', variant: 'success' });
      setEmail('');
      void sendNotification({ type: 'newsletter', data: { email: address }, ...(token && { turnstileToken: token }) });
    } catch (error) {
      console.error('[newsletter] Subscribing failed.', error);
      toast({ title: 'Failed to subscribe', description: 'Please try again later.', variant: 'error' });
    } finally {
      busyRef.current = false;
      setBusy(false);
    }
  }

  return (
    <form className="mb-3 text-left" onSubmit={subscribe} aria-label="Subscribe to the newsletter">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <TextField
          id={`${id}-email`}
          label="Email address"
          className="flex-1"
          type="email"
          name="email"
          autoComplete="email"
          required
          maxLength={LIMITS.emailMaxLength}
          value={email}
          onChange={(e) => setEmail(e.currentTarget.value)}
        />
        <button type="submit" className="btn-primary shrink-0 aria-disabled:cursor-wait aria-disabled:opacity-60" disabled={!hydrated} aria-disabled={busy || undefined}>
          {busy ? 'Subscribing...' : 'Subscribe'}
        </button>
      </div>
      <BusyStatus busy={busy} text="Subscribing..." />
    </form>
  );
}
