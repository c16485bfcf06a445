/**
 * The newsletter: write it (subject and Markdown), see it as subscribers will, send it to every subscriber once,
 * and see what was sent. Sending runs on the server a few seconds at a time; this panel calls again until
 * everyone has it, and a send that stopped can be resumed without anyone getting it twice.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { type ReactNode, useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from '@/lib/zod';
import { NEWSLETTER } from '@/config/constants';
import { countOf, formatShortDate } from '@/lib/format';
import { ActionButton } from '@/features/forms/fields';
import { useQuestion } from '@/features/forms/use-question';
import { toast } from '@/features/toast/store';
import { renderNewsletter } from '@/features/newsletter/render';
import { createNewsletter, listNewsletters, listSubscribers, type Newsletter, sendAll } from './mail-api';
import { useQuery } from '@tanstack/react-query';
import { keys, LoadState, loaded, useRefresh } from './queries';
import { Panel, Section } from '@/components/Section';

/** What a newsletter needs before it is sent (the database holds it to its limits as the last line). */
const composeForm = z.object({
  subject: z
    .string()
    .refine((subject) => subject.trim() !== '', 'Give the newsletter a subject.')
    .max(NEWSLETTER.subjectMaxLength),
  body: z
    .string()
    .refine((body) => body.trim() !== '', 'Write the newsletter before sending it.')
    .max(NEWSLETTER.bodyMaxLength),
});

type Field = keyof z.infer<typeof composeForm>;

/** One field of the form: its label, the field, and what it is for under it (which the field names as its description). */
function Described({ field, label, help, children }: { field: Field; label: string; help: string; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={`newsletter-${field}`} className="label">
        {label}
      </label>
      {children}
      <p id={`newsletter-${field}-help`} className="mt-1 text-sm text-slate-700">
        {help}
      </p>
    </div>
  );
}

const PLACEHOLDER = '_Your newsletter appears here as you write it._';
/** The functions print the deploy's SHOP_POSTAL_ADDRESS here; the page cannot read it. */
const PREVIEW_POSTAL_ADDRESS = 'your postal address (SHOP_POSTAL_ADDRESS)';

function PastNewsletters({ rows, resume, busy }: { rows: Newsletter[]; resume: (row: Newsletter) => void; busy: boolean }) {
  if (rows.length === 0) return <p className="mt-2 text-slate-700">No newsletter has been sent yet.</p>;
  return (
    <ul className="mt-2 divide-y divide-slate-100 rounded-2xl bg-white ring-1 ring-slate-200">
      {rows.map((row) => (
        <li key={row.id} className="flex flex-wrap items-center justify-between gap-2 px-4 py-3">
          <span className="min-w-0 break-words">
            <strong>{row.subject}</strong>
            {row.product_id && <span className="ml-2 rounded-full bg-slate-100 px-2 text-sm font-semibold text-slate-800">availability email</span>}
            <span className="block text-sm text-slate-700">
              {formatShortDate(row.created_at)} by {row.created_by} · sent to {row.sent} of {row.recipients}
              {row.skipped > 0 && ` · ${row.skipped} unsubscribed before it reached them`}
              {row.unknown > 0 && ` · ${row.unknown} not known to have had it (the email service never answered for their batch, and a day on it cannot be sent again without risking a second copy)`}
            </span>
          </span>
          {row.waiting > 0 && (
            <ActionButton className="btn-secondary" onClick={() => resume(row)} busy={busy}>
              Resume sending<span className="sr-only"> {row.subject}</span>
            </ActionButton>
          )}
        </li>
      ))}
    </ul>
  );
}

export function NewsletterPanel() {
  const history = loaded(useQuery({ queryKey: keys.newsletters, queryFn: listNewsletters }));
  const subscribers = loaded(useQuery({ queryKey: keys.subscribers, queryFn: listSubscribers }));
  const refresh = useRefresh();
  const reload = () => void refresh(keys.newsletters);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    clearErrors,
    watch,
    formState: { errors },
  } = useForm({ resolver: zodResolver(composeForm), defaultValues: { subject: '', body: '' } });
  const [subject, body] = watch(['subject', 'body']);
  const question = useQuestion();
  const confirming = question.asking !== null;
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState('');
  // One problem at a time, the subject's first, under both fields and tied to the one it is about.
  const error = errors.subject ? { field: 'subject', ...errors.subject } : errors.body ? { field: 'body', ...errors.body } : errors.root ? { field: 'form', ...errors.root } : null;

  // Only confirmed readers are sent to.
  const audience = subscribers.status === 'ready' ? subscribers.data.filter((s) => s.status === 'confirmed').length : null;
  const preview = useMemo(
    () =>
      renderNewsletter({
        subject: subject || 'Subject',
        siteOrigin: window.location.origin,
        markdown: body.trim() ? body : PLACEHOLDER,
        unsubscribeUrl: `${window.location.origin}${NEWSLETTER.unsubscribePagePath}`,
        postalAddress: PREVIEW_POSTAL_ADDRESS,
      }).html,
    [subject, body],
  );

  async function run(task: () => Promise<string>) {
    setBusy(true);
    clearErrors();
    try {
      const message = await task();
      setStatus(message);
      toast({ title: message });
    } catch (failure) {
      const message = failure instanceof Error ? failure.message : 'Sending failed.';
      setError('root', { message });
      setStatus('');
    } finally {
      setBusy(false);
      question.close();
      reload();
    }
  }

  const check = handleSubmit(() => {
    if (!busy) question.ask(true);
  });

  const send = () =>
    run(async () => {
      const created = await createNewsletter(subject, body);
      setStatus(`Sending to ${created.recipients}...`);
      const message = await sendAll(created.id, setStatus);
      reset();
      return message;
    });

  const resume = (row: Newsletter) => {
    if (!busy) void run(() => sendAll(row.id, setStatus));
  };

  /** A field's own marks: its id, its registration, invalid while its error shows, and described by its help and that error. */
  const fieldMarks = (field: Field) => ({
    id: `newsletter-${field}`,
    ...register(field),
    'aria-invalid': error?.field === field ? true : undefined,
    'aria-describedby': [`newsletter-${field}-help`, error?.field === field ? 'newsletter-error' : ''].filter(Boolean).join(' '),
  });
  return (
    <Panel id="newsletter-heading" title="Newsletter" className="space-y-6">
      <div className="grid gap-6 lg:grid-cols-2">
        <form onSubmit={check} noValidate className="space-y-3 rounded-2xl bg-white p-4 ring-1 ring-slate-200" aria-labelledby="compose-heading" aria-busy={busy}>
          <h3 id="compose-heading" className="text-lg font-bold">
            Write a newsletter
          </h3>
          <Described field="subject" label="Subject" help="What subscribers see in their inbox.">
            <input className="field" maxLength={NEWSLETTER.subjectMaxLength} {...fieldMarks('subject')} />
          </Described>
          <Described field="body" label="Message (Markdown)" help="**bold**, *italic*, [a link](https://…), lines starting with - for a list, ## for a heading. HTML is shown as text.">
            <textarea className="field min-h-64 font-mono text-sm" maxLength={NEWSLETTER.bodyMaxLength} {...fieldMarks('body')} />
          </Described>
          {error && (
            <p id="newsletter-error" role="alert" className="text-sm font-semibold text-red-800">
              {error.message}
            </p>
          )}
          {!confirming && (
            <ActionButton ref={question.button} type="submit" className="btn-primary" busy={busy}>
              Send newsletter
            </ActionButton>
          )}
          {confirming && (
            <div className="flex flex-wrap items-center gap-2 rounded-xl bg-sky p-3">
              <span id="newsletter-question" className="text-sm">
                Send “{subject.trim()}” to {audience === null ? 'every subscriber' : countOf(audience, 'subscriber')} now? It cannot be taken back.
              </span>
              <ActionButton ref={question.question} className="btn-primary" onClick={send} busy={busy} aria-describedby="newsletter-question">
                {busy ? 'Sending...' : 'Send now'}
              </ActionButton>
              <ActionButton className="btn-secondary" onClick={question.close} busy={busy}>
                Not yet
              </ActionButton>
            </div>
          )}
          <p role="status" className="text-sm font-semibold text-navy">
            {status}
          </p>
        </form>
        <div>
          <h3 id="preview-heading" className="text-lg font-bold">
            Preview
          </h3>
          <p className="text-sm text-slate-700">As subscribers will see it{audience !== null && `, going to ${countOf(audience, 'subscriber')}`}.</p>
          {/* Scripts never run in it (no allow-scripts); same origin, so it is drawn with the page and not as a separate process. */}
          <iframe title="Preview of the newsletter email" sandbox="allow-same-origin" srcDoc={preview} className="mt-2 h-[34rem] w-full rounded-2xl bg-white ring-1 ring-slate-200" />
        </div>
      </div>
      <Section id="sent-heading" title="Sent newsletters">
        <LoadState state={history} what="the newsletters" />
        {history.status === 'ready' && <PastNewsletters rows={history.data} resume={resume} busy={busy} />}
      </Section>
    </Panel>
  );
}
