/**
 * The blog's subscribe form: sends the address to /api/send-notification, which emails it a confirmation link (or,
 * to an address already subscribed, a note saying so); the address is subscribed once that link is followed. Every
 * sign-up gets the same one message, so the form tells nobody whether an address is on the list. The field is left to the browser (not React state), so
 * an address typed before the island hydrates is the one sent.
 */
import { toast } from '@/features/toast/store';
import { EmailSignUpRow } from './fields';
import { fieldValue } from './submit';
import { useNotificationForm } from './use-notification-form';

const NEWSLETTER_SIGNED_UP = 'Almost done: please check your inbox for the email we have sent you.';

export default function NewsletterForm() {
  const { busy, hydrated, onSubmit } = useNotificationForm({
    type: 'newsletter',
    read: (form) => ({ email: fieldValue(form, 'email'), page: window.location.pathname }),
    answered: ({ outcome }, form) => {
      if (outcome === 'stored') {
        toast({ title: NEWSLETTER_SIGNED_UP, variant: 'success' });
        form.reset();
      } else {
        toast({ title: 'Failed to subscribe', description: 'Please try again later.', variant: 'error' });
      }
    },
  });

  return (
    <form className="mb-3 text-left" onSubmit={onSubmit} aria-label="Subscribe to the newsletter">
      <EmailSignUpRow hydrated={hydrated} busy={busy} label="Subscribe" busyLabel="Subscribing..." />
    </form>
  );
}
