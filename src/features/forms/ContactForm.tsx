/**
 * The contact form (spec sections 2 and 5): all four fields required and bounded. When a bot-check is
 * configured, a submit without a token is refused; the message is stored with the anon key (insert only,
 * no row back), then the publisher is notified.
 */
import { useEffect, useId, useRef, useState, type SubmitEvent } from 'react';
import { HUMAN_CHECK_ACTIONS, LIMITS } from '@/config/constants';
import { getSupabase } from '@/lib/supabase/client';
import { toast } from '@/features/toast/store';
import { BusyStatus, checkFields, useHydrated, TextAreaField, TextField } from './fields';
import { getHumanCheckToken, humanCheckEnabled, preloadHumanCheck } from './human-check';
import { sendNotification } from './notify';

interface ContactValues {
  name: string;
  email: string;
  subject: string;
  message: string;
}

const EMPTY: ContactValues = { name: '', email: '', subject: '', message: '' };

export default function ContactForm() {
  const id = useId();
  const [values, setValues] = useState<ContactValues>(EMPTY);
  const [busy, setBusy] = useState(false);
  const busyRef = useRef(false);
  const hydrated = useHydrated();

  useEffect(() => preloadHumanCheck(), []);

  const bind = (field: keyof ContactValues) => ({
    id: `${id}-${field}`,
    name: field,
    required: true,
    value: values[field],
    onChange: (e: { currentTarget: { value: string } }) => {
      const value = e.currentTarget.value;
      setValues((current) => ({ ...current, [field]: value }));
    },
  });

  async function send(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busyRef.current || !checkFields(event.currentTarget)) return;
    busyRef.current = true;
    setBusy(true);
    const submission: ContactValues = {
      name: values.name.trim(),
      email: values.email.trim(),
      subject: values.subject.trim(),
      message: values.message.trim(),
    };
    try {
      const token = await getHumanCheckToken(HUMAN_CHECK_ACTIONS.contact);
      if (!token && humanCheckEnabled()) {
        toast({ title: 'Verification failed', description: 'Please try again later.', variant: 'error' });
        return;
      }

      const { error } = await (await getSupabase()).from('contact_submissions').insert(submission);
      if (error) {
        console.error('[contact] Sending the message failed.', error);
        toast({ title: 'Failed to send message', description: 'Please try again later.', variant: 'error' });
        return;
      }
      toast({ title: 'Message sent!', description: "Thank you for getting in touch. We'll reply by email soon.", variant: 'success' });
      setValues(EMPTY);
      void sendNotification({ type: 'contact', data: submission, ...(token && { turnstileToken: token }) });
    } catch (error) {
      console.error('[contact] Sending the message failed.', error);
      toast({ title: 'Failed to send message', description: 'Please try again later.', variant: 'error' });
    } finally {
      busyRef.current = false;
      setBusy(false);
    }
  }

  return (
    <form className="grid gap-4" onSubmit={send} aria-label="Contact form">
      <p className="text-sm text-slate-700">All fields are required.</p>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="Name" type="text" autoComplete="name" maxLength={LIMITS.nameMaxLength} {...bind('name')} />
        <TextField label="Email" type="email" autoComplete="email" maxLength={LIMITS.emailMaxLength} {...bind('email')} />
      </div>
      <TextField label="Subject" type="text" maxLength={LIMITS.subjectMaxLength} {...bind('subject')} />
      <TextAreaField label="Message" rows={6} maxLength={LIMITS.messageMaxLength} {...bind('message')} />
      <div>
        <button type="submit" className="btn-primary w-full aria-disabled:cursor-wait aria-disabled:opacity-60 sm:w-auto" disabled={!hydrated} aria-disabled={busy || undefined}>
          {busy ? 'Sending...' : 'Send Message'}
        </button>
      </div>
      <BusyStatus busy={busy} text="Sending your message..." />
    </form>
  );
}
