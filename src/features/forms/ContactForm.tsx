/**
 * The contact form: all four fields required and bounded, checked with the request's own schema. When a
 * bot-check is configured, a submit without a token is refused; the message goes to /api/send-notification, which
 * checks the token again, stores it and tells the publisher. Whatever is in the fields when the visitor sends,
 * including what was typed before the island hydrated, is what is sent.
 */
import { useEffect, useId } from 'react';
import { LIMITS } from '@/config/constants';
import { toast } from '@/features/toast/store';
import { SubmitButton, TextAreaField, TextField } from './fields';
import { contactData } from './notification-data';
import { useSchemaForm } from './use-schema-form';

const FIELDS = ['name', 'email', 'subject', 'message'] as const;

/**
 * The subject (and, with a quantity, the start of the message) from the address's query, as the *Request a quote*
 * links give them.
 */
function prefillOfQuery(search: string): Partial<Record<'subject' | 'message', string>> {
  const query = new URLSearchParams(search);
  const subject = query.get('subject')?.trim().slice(0, LIMITS.subjectMaxLength);
  const quantity = Number(query.get('quantity'));
  return {
    ...(subject && { subject }),
    ...(Number.isInteger(quantity) && quantity > 0 && quantity < 1_000_000 && { message: `Number of copies: ${quantity}\n\n` }),
  };
}

export default function ContactForm() {
  const id = useId();
  const { form, busy, hydrated, onSubmit } = useSchemaForm({
    type: 'contact',
    schema: contactData,
    answered: ({ outcome }, reset) => {
      if (outcome === 'stored') {
        toast({ title: 'Message sent!', description: "Thank you for getting in touch. We'll reply by email soon.", variant: 'success' });
        reset();
      } else {
        toast({ title: 'Failed to send message', description: 'Please try again later.', variant: 'error' });
      }
    },
  });

  // A link may fill in the subject and say how many copies (a request for a quote): only fields still empty, and
  // once the form has the fields (what was typed before then is theirs).
  const { getValues, setValue } = form;
  useEffect(() => {
    for (const [name, value] of Object.entries(prefillOfQuery(window.location.search)) as Array<['subject' | 'message', string]>) {
      if (!getValues(name)) setValue(name, value);
    }
  }, [getValues, setValue]);

  const field = (name: (typeof FIELDS)[number]) => ({ id: `${id}-${name}`, required: true, ...form.register(name) });

  return (
    <form className="grid gap-4" onSubmit={onSubmit} aria-label="Contact form">
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
