/**
 * /admin#reviews: buyers' reviews, new ones first, each with its order, stars and words, what its state means and
 * the actions that state has: a new review Publish or Reject, a published one Unpublish (each with a note kept for
 * the publisher), a rejected or unpublished one Publish; and a public reply shown under the published review.
 * Nothing reaches the site until it is published; every change is in the review's history. Above the list: how
 * many orders were asked, answered, how many reviews are published, and their average.
 */
import { useQuery } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { keys, LoadState, loaded, useAction } from '@/features/admin/queries';
import { ActionButton } from '@/features/forms/fields';
import { formatDateTime } from '@/lib/format';
import { BEST_RATING, ratingText } from '@/lib/reviews';
import { listReviews, type ReviewCounts, type ReviewRow, reviewCounts, runReviewAction } from './admin-api';
import { REVIEW_LIMITS, type ReviewStatus } from './contract';
import { Panel } from '@/components/Section';

const BADGE: Record<ReviewStatus, string> = {
  new: 'bg-amber-100 text-amber-950',
  published: 'bg-emerald-100 text-emerald-900',
  rejected: 'bg-slate-100 text-slate-800',
  unpublished: 'bg-slate-100 text-slate-800',
};

/** What each state means for the site and the buyer, shown with the actions it has. */
const MEANS: Record<ReviewStatus, string> = {
  new: 'Not on the site yet. Publish puts it on the book’s pages after the rebuild; Reject keeps it off, and its link then tells the buyer it was not published.',
  published: 'On the book’s pages. Unpublish takes it off them after the rebuild and keeps it here, with its history.',
  rejected: 'Kept off the site; its link tells the buyer it was not published. Publish puts it on the book’s pages after all.',
  unpublished: 'Taken off the site; its link tells the buyer it is not published. Publish puts it back after the rebuild.',
};

/** The action that takes a review off (or keeps it off) the site, with its note; none once it is off. */
const TAKE_OFF: Partial<Record<ReviewStatus, { action: 'reject' | 'unpublish'; button: string; note: string }>> = {
  new: { action: 'reject', button: 'Reject', note: 'Note for rejecting (kept for you, not shown)' },
  published: { action: 'unpublish', button: 'Unpublish', note: 'Note for unpublishing (kept for you, not shown)' },
};

const load = () => Promise.all([listReviews(), reviewCounts()]);
const stars = (rating: number) => '★'.repeat(rating) + '☆'.repeat(BEST_RATING - rating);

function summary(c: ReviewCounts): string {
  const average = c.average === null ? '' : ` · average ${c.average} out of ${BEST_RATING}`;
  return `${c.asked} asked · ${c.answered} answered · ${c.published} published${average}`;
}

export function ReviewsPanel() {
  const state = loaded(useQuery({ queryKey: keys.reviews, queryFn: load }));
  return (
    <Panel id="reviews-admin-heading" title="Reviews">
      <LoadState state={state} what="reviews" />
      {state.status === 'ready' && (
        <>
          <p className="mt-3 font-semibold">{summary(state.data[1])}</p>
          {state.data[0].length === 0 ? (
            <p className="mt-4 text-slate-700">No reviews yet. Buyers are asked for one after their order is delivered.</p>
          ) : (
            <ul className="mt-4 space-y-4" aria-label="Reviews, new first">
              {state.data[0].map((review) => (
                <ReviewItem key={review.id} review={review} />
              ))}
            </ul>
          )}
        </>
      )}
    </Panel>
  );
}

function ReviewItem({ review }: { review: ReviewRow }) {
  const id = useId();
  const { act: run, busy } = useAction(runReviewAction, [keys.reviews]);
  const [note, setNote] = useState('');
  const [reply, setReply] = useState(review.reply ?? '');
  const heading = useRef<HTMLHeadingElement>(null);
  const takeOff = TAKE_OFF[review.status];
  const act = async (action: Parameters<typeof runReviewAction>[0]) => {
    if (await run(action)) setNote('');
    // Publish, Reject and Unpublish go as the review moves, and focus with them: keep a keyboard user on this review.
    // Save reply stays, with focus on it.
    if (action.action !== 'reply') heading.current?.focus();
  };
  return (
    <li className="rounded-2xl bg-white p-4 ring-1 ring-slate-200">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 ref={heading} tabIndex={-1} id={`${id}-title`} className="min-w-0 break-words text-lg font-bold">
          {review.title}
        </h3>
        <span className={`inline-block rounded-full px-2 text-sm font-semibold ${BADGE[review.status]}`}>{review.status}</span>
      </div>
      <p className="text-sm text-slate-700">
        <a className="font-semibold text-navy underline" href={`#order/${review.order_id}`}>
          Order {review.order_number}
        </a>{' '}
        · {review.book_title} · {review.display_name} · {formatDateTime(review.updated_at)}
      </p>
      <p className="mt-2 text-gold-dark">
        <span aria-hidden="true">{stars(review.rating)}</span>
        <span className="sr-only">{ratingText(review.rating)}</span>
      </p>
      <p className="mt-1 whitespace-pre-line break-words">{review.body}</p>
      {/* A review published after all keeps its old note in the history, not here. */}
      {(review.status === 'rejected' || review.status === 'unpublished') && review.rejection_note && (
        <p className="mt-2 text-sm text-slate-700">
          {review.status === 'rejected' ? 'Rejected' : 'Unpublished'}: {review.rejection_note}
        </p>
      )}
      <p className="mt-2 text-sm text-slate-700">{MEANS[review.status]}</p>
      <div className="mt-3 flex flex-wrap items-end gap-2">
        {review.status !== 'published' && (
          <ActionButton className="btn-primary" busy={busy} onClick={() => act({ action: 'publish', reviewId: review.id })}>
            Publish<span className="sr-only"> {review.title}</span>
          </ActionButton>
        )}
        {takeOff && (
          <>
            <div className="min-w-48 flex-1">
              <label htmlFor={`${id}-note`} className="label">
                {takeOff.note}
              </label>
              <input id={`${id}-note`} className="field" maxLength={REVIEW_LIMITS.noteMax} value={note} onChange={(e) => setNote(e.target.value)} />
            </div>
            <ActionButton className="btn-secondary" busy={busy} onClick={() => act({ action: takeOff.action, reviewId: review.id, note })}>
              {takeOff.button}
              <span className="sr-only"> {review.title}</span>
            </ActionButton>
          </>
        )}
      </div>
      <div className="mt-3">
        <label htmlFor={`${id}-reply`} className="label">
          Public reply (shown under the published review)
        </label>
        <textarea id={`${id}-reply`} className="field min-h-20" maxLength={REVIEW_LIMITS.replyMax} value={reply} onChange={(e) => setReply(e.target.value)} />
        <ActionButton className="btn-secondary mt-2" busy={busy} ready={reply.trim() !== (review.reply ?? '')} onClick={() => act({ action: 'reply', reviewId: review.id, reply })}>
          {reply.trim() === '' && review.reply ? 'Remove reply' : 'Save reply'}
        </ActionButton>
      </div>
      {review.history.length > 0 && (
        <details className="mt-3 text-sm">
          <summary className="cursor-pointer font-semibold">History ({review.history.length})</summary>
          <ol className="mt-2 space-y-1">
            {review.history.map((h) => (
              <li key={`${h.at}-${h.action}`}>
                {formatDateTime(h.at)} · {h.action} by {h.actor}
                {h.action === 'edited' && ` · before: ${h.rating}★ “${h.title}”: ${h.body}`}
                {h.note && ` · ${h.note}`}
              </li>
            ))}
          </ol>
        </details>
      )}
    </li>
  );
}
