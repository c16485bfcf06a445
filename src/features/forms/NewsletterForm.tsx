/**
 * The blog's subscribe form: sends the address to /api/send-notification, which emails it a confirmation link;
 * the address is subscribed once that link is followed. The field is left to the browser (not React state), so
 * an address typed before the island hydrates is the one sent.
 */
import { toast } from '@/features/toast/store';
import { EmailSignUpRow } from './fields';
import { fieldValue } from './submit';
import { useNotificationForm } from './use-notification-form';

const NEWSLETTER_CONFIRM_DESCRIPTION = 'Almost done: please confirm from the email we have just sent you.';

export default function NewsletterForm() {
  const { busy, hydrated, onSubmit } = useNotificationForm({
    type: 'newsletter',
    read: (form) => ({ email: fieldValue(form, 'email'), page: window.location.pathname }),
    answered: ({ outcome }, form) => {
      if (outcome === 'stored') {
        toast({ title: 'Successfully subscribed!', description: NEWSLETTER_CONFIRM_DESCRIPTION, variant: 'success' });
        form.reset();
      } else if (outcome === 'duplicate') {
        toast({ title: "You're already subscribed!", description: 'No need to subscribe again.', variant: 'info' });
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
