/**
 * The review form a review request's link opens (/review?book=<id>#<signed token>): no sign-in, the link names the
 * order. Stars, a short title, the review, the name to show (prefilled "First name L.") and a tick to agree it
 * may be published; one review per book of the order, changeable until the publisher publishes it (or rejects it:
 * then the link says it was not published, and the form is gone). A save names the version of the review the form
 * loaded: with the link open in two windows, a save from the one that is behind is refused with a word to reload. Checked with
 * the contract's schema field by field (each error marked, described under its field, the first one focused),
 * then again by /api/review and the database. The title and the review say how many characters they have left as
 * the buyer types; nothing typed is cut off, a field past its limit is refused with the limit in words.
 */
import { postJson } from '@/lib/post-json';
import { zodResolver } from '@hookform/resolvers/zod';
import { type InputHTMLAttributes, type Ref, useEffect, useId, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from '@/lib/zod';
import { CharacterCount, countId, FieldError, invalidProps, SubmitButton } from '@/features/forms/fields';
import { toast } from '@/features/toast/store';
import { ratingText } from '@/lib/reviews';
import { REVIEW_LIMITS, REVIEW_MESSAGES, type ReviewFormAnswer, reviewFields, reviewFormAnswer, reviewLength } from './contract';

type Book = ReviewFormAnswer['books'][number];
type Loaded = { status: 'loading' } | { status: 'refused'; message: string } | { status: 'ready'; answer: ReviewFormAnswer };

const tokenOfPage = () => decodeURIComponent(window.location.hash.replace(/^#/, ''));

export default function ReviewForm() {
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const [bookId, setBookId] = useState<string | null>(null);

  useEffect(() => {
    const token = tokenOfPage();
    if (!token) return setLoaded({ status: 'refused', message: REVIEW_MESSAGES.linkNotValid });
    postJson('/api/review', { action: 'read', token })
      .then(({ ok, body }) => {
        if (!ok) return setLoaded({ status: 'refused', message: typeof body.error === 'string' ? body.error : REVIEW_MESSAGES.linkNotValid });
        const answer = reviewFormAnswer.parse(body);
        const wanted = new URLSearchParams(window.location.search).get('book');
        setBookId(answer.books.find((b) => b.productId === wanted)?.productId ?? answer.books[0]?.productId ?? null);
        setLoaded({ status: 'ready', answer });
      })
      .catch(() => setLoaded({ status: 'refused', message: 'We could not open your review just now. Please try again in a moment.' }));
  }, []);

  if (loaded.status === 'loading') return <p role="status">Opening your review...</p>;
  if (loaded.status === 'refused') {
    return (
      <p role="alert" className="rounded-2xl bg-red-50 p-4 font-semibold text-red-900">
        {loaded.message}
      </p>
    );
  }
  const { answer } = loaded;
  const book = answer.books.find((b) => b.productId === bookId);
  return (
    <div>
      <p className="text-lg text-slate-700">Order {answer.number}</p>
      {answer.books.length > 1 && (
        <nav aria-label="Books in your order" className="mt-4 flex flex-wrap gap-2">
          {answer.books.map((b) => (
            <button key={b.productId} type="button" className={b.productId === bookId ? 'btn-primary' : 'btn-secondary'} aria-pressed={b.productId === bookId} onClick={() => setBookId(b.productId)}>
              {b.title}
            </button>
          ))}
        </nav>
      )}
      {book && (
        <BookReviewForm
          key={book.productId}
          book={book}
          defaultName={answer.displayName}
          onSaved={(review) => setLoaded({ status: 'ready', answer: { ...answer, books: answer.books.map((b) => (b.productId === book.productId ? { ...b, review } : b)) } })}
        />
      )}
    </div>
  );
}

type Input = z.input<typeof reviewFields>;
type Output = z.output<typeof reviewFields>;

function BookReviewForm({ book, defaultName, onSaved }: { book: Book; defaultName: string; onSaved: (review: NonNullable<Book['review']>) => void }) {
  const id = useId();
  const [hydrated, setHydrated] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);
  const savedRef = useRef<HTMLParagraphElement>(null);
  const existing = book.review;
  const {
    register,
    handleSubmit,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<Input, unknown, Output>({
    resolver: zodResolver(reviewFields),
    defaultValues: {
      rating: existing ? String(existing.rating) : undefined,
      title: existing?.title ?? '',
      body: existing?.body ?? '',
      displayName: existing?.displayName ?? defaultName,
      consent: existing ? true : undefined,
    },
  });
  useEffect(() => setHydrated(true), []);
  useEffect(() => {
    if (saved) savedRef.current?.focus();
  }, [saved]);

  if (existing?.status === 'published') {
    return (
      <p className="mt-6 rounded-2xl bg-emerald-50 p-4 text-emerald-950">
        Your review of <cite>{book.title}</cite> is published, so it can no longer be changed. Thank you!
      </p>
    );
  }
  // Rejected or taken off the site by the publisher: said plainly, with nothing to edit (it would not be read again).
  if (existing?.status === 'rejected' || existing?.status === 'unpublished') {
    return (
      <p className="mt-6 rounded-2xl bg-slate-100 p-4 text-slate-900">
        {existing.status === 'rejected' ? 'We read your review of ' : 'We have taken your review of '}
        <cite>{book.title}</cite>
        {existing.status === 'rejected' ? ' and decided not to publish it.' : ' off the site.'} It can no longer be changed. Thank you for taking the time to write it.
      </p>
    );
  }

  const onSubmit = async (review: Output) => {
    setSaved(null);
    // The version this form shows: a save from another window since is refused rather than overwritten.
    const version = existing?.version ?? 0;
    const { ok, body } = await postJson('/api/review', { action: 'save', token: tokenOfPage(), productId: book.productId, version, review }).catch(() => ({
      ok: false,
      body: {} as Record<string, unknown>,
    }));
    if (!ok) {
      toast({ title: 'Your review was not saved', description: typeof body.error === 'string' ? body.error : 'Please try again in a moment.', variant: 'error' });
      return;
    }
    setSaved(typeof body.message === 'string' ? body.message : 'Thank you! Your review is saved.');
    onSaved({ rating: review.rating, title: review.title, body: review.body, displayName: review.displayName, status: 'new', version: typeof body.version === 'number' ? body.version : version });
  };

  const field = (name: 'title' | 'displayName') => ({ ...register(name), id: `${id}-${name}`, error: errors[name]?.message });
  const [titleText = '', bodyText = ''] = watch(['title', 'body']);
  return (
    <form className="mt-6 space-y-5" noValidate onSubmit={handleSubmit(onSubmit)} aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} className="text-2xl font-bold">
        Your review of <cite className="not-italic">{book.title}</cite>
      </h2>
      {existing && <p className="text-slate-700">You can change your review until we publish it.</p>}
      <fieldset {...invalidProps(`${id}-rating`, errors.rating?.message)}>
        <legend className="label">Your rating</legend>
        <div className="mt-1 flex flex-wrap gap-2">
          {[1, 2, 3, 4, 5].map((stars, index) => (
            <label key={stars} className="flex min-h-11 cursor-pointer items-center gap-2 rounded-xl px-3 ring-1 ring-slate-300 has-checked:bg-gold/20 has-checked:ring-gold-dark">
              <input type="radio" value={String(stars)} {...register('rating')} id={index === 0 ? `${id}-rating` : undefined} />
              <span aria-hidden="true" className="text-gold-dark">
                {'★'.repeat(stars)}
              </span>
              <span className="sr-only">{ratingText(stars)}</span>
            </label>
          ))}
        </div>
        <FieldError fieldId={`${id}-rating`} message={errors.rating?.message} />
      </fieldset>
      <TextInput label="Title" count={{ length: reviewLength(titleText), max: REVIEW_LIMITS.titleMax }} {...field('title')} />
      <div>
        <label htmlFor={`${id}-body`} className="label">
          Your review
        </label>
        <textarea id={`${id}-body`} className="field min-h-32" {...register('body')} {...invalidProps(`${id}-body`, errors.body?.message, countId(`${id}-body`))} />
        <CharacterCount fieldId={`${id}-body`} length={reviewLength(bodyText)} max={REVIEW_LIMITS.bodyMax} />
        <FieldError fieldId={`${id}-body`} message={errors.body?.message} />
      </div>
      <TextInput label="Name to show" autoComplete="off" {...field('displayName')} />
      <div>
        <label className="flex items-start gap-3">
          <input type="checkbox" className="mt-1 size-5" id={`${id}-consent`} {...register('consent')} {...invalidProps(`${id}-consent`, errors.consent?.message)} />
          <span>I agree that my review may be published on the site with the name above.</span>
        </label>
        <FieldError fieldId={`${id}-consent`} message={errors.consent?.message} />
      </div>
      <SubmitButton hydrated={hydrated} busy={isSubmitting} label={existing ? 'Save changes' : 'Send review'} busyLabel="Sending..." />
      {saved && (
        <p ref={savedRef} tabIndex={-1} role="status" className="rounded-2xl bg-emerald-50 p-4 font-semibold text-emerald-950">
          {saved}
        </p>
      )}
    </form>
  );
}

/** A labelled input that react-hook-form registers (its ref), marked and described when in error; `count`: its characters left. */
function TextInput({
  id,
  label,
  error,
  count,
  ...input
}: { id: string; label: string; error: string | undefined; count?: { length: number; max: number }; ref: Ref<HTMLInputElement> } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <div>
      <label htmlFor={id} className="label">
        {label}
      </label>
      <input id={id} type="text" className="field" {...invalidProps(id, error, count && countId(id))} {...input} />
      {count && <CharacterCount fieldId={id} {...count} />}
      <FieldError fieldId={id} message={error} />
    </div>
  );
}
