/**
 * The blog's subscribe form: sends the address to /api/send-notification, which emails it a confirmation link (or,
 * to an address already subscribed, a note saying so); the address is subscribed once that link is followed. Every
 * sign-up gets the same one message, so the form tells nobody whether an address is on the list. The address is
 * checked with the request's own schema; one typed before the island hydrates is the one sent. Only /blog has the
 * form, and it loads when scrolled to, so the form library is no part of any page's first paint.
 */
import { toast } from '@/features/toast/store';
import { EmailSignUpRow } from './fields';
import { newsletterData } from './notification-data';
import { useSchemaForm } from './use-schema-form';

const NEWSLETTER_SIGNED_UP = 'Almost done: please check your inbox for the email we have sent you.';

export default function NewsletterForm() {
  const { form, busy, hydrated, onSubmit } = useSchemaForm({
    type: 'newsletter',
    schema: newsletterData,
    request: ({ email }) => ({ email, page: window.location.pathname }),
    answered: ({ outcome }, reset) => {
      if (outcome === 'stored') {
        toast({ title: NEWSLETTER_SIGNED_UP, variant: 'success' });
        reset();
      } else {
        toast({ title: 'Failed to subscribe', description: 'Please try again later.', variant: 'error' });
      }
    },
  });

  return (
    <form className="mb-3 text-left" onSubmit={onSubmit} aria-label="Subscribe to the newsletter">
      <EmailSignUpRow hydrated={hydrated} busy={busy} label="Subscribe" busyLabel="Subscribing..." field={form.register('email')} />
    </form>
  );
}
