/**
 * "Email me when it's available" on a book that cannot be bought now: the address goes to /api/send-notification
 * behind the same bot-check as the newsletter, which emails it a confirmation link; once confirmed, the shopper
 * gets one email when the publisher puts the book back in stock. The field is left to the browser (not React
 * state), so an address typed before the island hydrates is the one sent. Its one field is checked by hand
 * (`checkFields`, the shop's email rule), not with the form library the other forms use: the form is on every
 * product page, which downloads no form library.
 */
import { useState } from 'react';
import { toast } from '@/features/toast/store';
import { EmailSignUpRow } from './fields';
import { fieldValue } from './submit';
import { useNotificationForm } from './use-notification-form';

/** A title before its release (`preorder`) is not "back" when copies open: its waiting list is for pre-orders that are full. */
export default function BackInStockForm({ productId, title, preorder = false }: { productId: string; title: string; preorder?: boolean }) {
  const [done, setDone] = useState('');
  const { busy, hydrated, onSubmit } = useNotificationForm({
    type: 'back_in_stock',
    read: (form) => ({ email: fieldValue(form, 'email'), productId }),
    answered: ({ outcome, message }, form, { email }) => {
      if (outcome === 'failed') return toast({ title: 'We could not add you to the list', description: 'Please try again later.', variant: 'error' });
      if (outcome === 'stored') {
        // The same words whether the address is new or already on the list: its inbox says which.
        setDone(`Almost done: please check your inbox at ${email} for the email we have sent you about ${title}.`);
        form.reset();
      } else {
        // The book can be bought now, or is not in the shop: the server's own words.
        setDone(message ?? `We'll email ${email} once when ${title} is available.`);
      }
    },
  });

  return (
    <form className="rounded-2xl bg-white p-4 ring-1 ring-slate-200" onSubmit={onSubmit} aria-label={`Email me when ${title} is available`}>
      <p className="font-semibold text-navy">
        {preorder ? "Pre-orders are full for now. Leave your email and we'll tell you when you can order it." : "Out of stock for now. Leave your email and we'll tell you when it's back."}
      </p>
      <EmailSignUpRow className="mt-3" hydrated={hydrated} busy={busy} label="Email me when it's available" busyLabel="Sending..." />
      <p role="status" className={done ? 'mt-3 text-sm font-semibold text-emerald-800' : 'sr-only'}>
        {done}
      </p>
    </form>
  );
}
