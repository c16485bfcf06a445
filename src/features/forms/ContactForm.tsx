/**
 * The contact form: all four fields required and bounded. When a bot-check is configured, a submit
 * without a token is refused; the message goes to /api/send-notification, which checks the token again,
 * stores it and tells the publisher. The fields are left to the browser (not React state), so whatever
 * is in them when the visitor sends, including what was typed before the island hydrated, is what is sent.
 */
import { useEffect, useId, useRef } from 'react';
import { LIMITS } from '@/config/constants';
import { toast } from '@/features/toast/store';
import { SubmitButton, TextAreaField, TextField } from './fields';
import { fieldValue } from './submit';
import { useNotificationForm } from './use-notification-form';

const FIELDS = ['name', 'email', 'subject', 'message'] as const;

/**
 * Fills the subject (and, with a quantity, the start of the message) from the address's query, as the *Request a
 * quote* links give them; what the visitor already typed is left alone.
 */
function prefillFromQuery(form: HTMLFormElement, search: string): void {
  const query = new URLSearchParams(search);
  const subject = query.get('subject')?.trim().slice(0, LIMITS.subjectMaxLength);
  const quantity = Number(query.get('quantity'));
  const fill = (name: string, value: string) => {
    const field = form.elements.namedItem(name);
    if ((field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement) && !field.value) field.value = value;
  };
  if (subject) fill('subject', subject);
  if (Number.isInteger(quantity) && quantity > 0 && quantity < 1_000_000) fill('message', `Number of copies: ${quantity}\n\n`);
}

export default function ContactForm() {
  const id = useId();
  const { busy, hydrated, onSubmit } = useNotificationForm({
    type: 'contact',
    // A message is never sent without passing the bot-check, when one is configured.
    read: (form) => {
      const [name, email, subject, message] = FIELDS.map((name) => fieldValue(form, name)) as [string, string, string, string];
      return { name, email, subject, message };
    },
    answered: ({ outcome }, form) => {
      if (outcome === 'stored') {
        toast({ title: 'Message sent!', description: "Thank you for getting in touch. We'll reply by email soon.", variant: 'success' });
        form.reset();
      } else {
        toast({ title: 'Failed to send message', description: 'Please try again later.', variant: 'error' });
      }
    },
  });

  // A link may fill in the subject and say how many copies (a request for a quote): only fields still empty.
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    const form = formRef.current;
    if (form) prefillFromQuery(form, window.location.search);
  }, []);

  const field = (name: (typeof FIELDS)[number]) => ({ id: `${id}-${name}`, name, required: true });

  return (
    <form ref={formRef} className="grid gap-4" onSubmit={onSubmit} aria-label="Contact form">
      <p className="text-sm text-slate-700">All fields are required.</p>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="Name" type="text" autoComplete="name" maxLength={LIMITS.nameMaxLength} {...field('name')} />
        <TextField label="Email" type="email" autoComplete="email" maxLength={LIMITS.emailMaxLength} {...field('email')} />
      </div>
      <TextField label="Subject" type="text" maxLength={LIMITS.subjectMaxLength} {...field('subject')} />
      <TextAreaField label="Message" rows={6} maxLength={LIMITS.messageMaxLength} {...field('message')} />
      <div>
        <SubmitButton className="w-full sm:w-auto" hydrated={hydrated} busy={busy} label="Send Message" busyLabel="Sending..." busyText="Sending your message..." />
      </div>
    </form>
  );
}
