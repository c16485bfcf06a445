/**
 * What the review form, its function (/api/review) and the back office agree on: the limits of a review (the
 * database's constraints hold the same ones), the form's body, the answers, and the words both sides show.
 */
import { z } from '../../lib/zod';

export const REVIEWS = {
  /** The page a review request's link opens; the signed token rides in the fragment, never in a server log. */
  formPath: '/review',
  /** How long a review request's link works. */
  linkValidDays: 60,
  /** An order shipped without tracking events counts as delivered this many days after it was shipped. */
  untrackedDeliveryDays: 10,
  /** REVIEW_REQUEST_DELAY_DAYS when unset: days after delivery before the buyer is asked. */
  defaultDelayDays: 3,
  /** Requests one scheduled run sends at most. */
  batchSize: 50,
} as const;

export const REVIEW_LIMITS = { titleMax: 80, bodyMax: 2000, nameMax: 40, replyMax: 1000, noteMax: 500 } as const;

export const REVIEW_MESSAGES = {
  rating: 'Please choose from 1 to 5 stars.',
  title: 'Please give your review a short title.',
  titleLong: `A title can be at most ${REVIEW_LIMITS.titleMax} characters.`,
  body: 'Please write your review.',
  bodyLong: `A review can be at most ${REVIEW_LIMITS.bodyMax.toLocaleString('en-AU')} characters.`,
  name: 'Please enter the name to show with your review.',
  nameLong: `The name to show can be at most ${REVIEW_LIMITS.nameMax} characters.`,
  bodyCharacters: 'Your review has an invisible control character in it (often from pasting). Please retype the part you pasted.',
  consent: 'Please tick the box to let us publish your review.',
  linkNotValid: 'This review link is not valid. Please use the link in your email from us, or reply to that email and we will help.',
  linkExpired: 'This review link has expired. Reply to the email it came in and we will send you a new one.',
  published: 'This review is published, so it can no longer be changed. Thank you!',
  notPublished: 'This review was not published, so it can no longer be changed. Thank you for taking the time to write it.',
  changedElsewhere: 'This review was changed in another window. Reload to see the latest.',
} as const;

/**
 * A field's length as the database counts it (char_length of the trimmed text, in code points): an emoji is one
 * character, not the two UTF-16 units a string's length says. The form's count of characters left counts the same.
 */
export const reviewLength = (value: string) => Array.from(value.trim()).length;
const atMost = (max: number) => (value: string) => reviewLength(value) <= max;

const noControl = (value: string) => !/[\p{Cc}]/u.test(value);
/** A review keeps its line breaks and tabs; any other control character (a NUL above all) the database cannot store. */
const noControlButLines = (value: string) => !/[^\P{Cc}\t\n\r]/u.test(value);

/** One review as the buyer writes it: the form checks it field by field, the function again, the database once more. */
export const reviewFields = z.object({
  rating: z.coerce.number({ error: REVIEW_MESSAGES.rating }).int(REVIEW_MESSAGES.rating).min(1, REVIEW_MESSAGES.rating).max(5, REVIEW_MESSAGES.rating),
  title: z.string().trim().min(1, REVIEW_MESSAGES.title).refine(atMost(REVIEW_LIMITS.titleMax), REVIEW_MESSAGES.titleLong).refine(noControl, REVIEW_MESSAGES.title),
  body: z.string().trim().min(1, REVIEW_MESSAGES.body).refine(atMost(REVIEW_LIMITS.bodyMax), REVIEW_MESSAGES.bodyLong).refine(noControlButLines, REVIEW_MESSAGES.bodyCharacters),
  displayName: z.string().trim().min(1, REVIEW_MESSAGES.name).refine(atMost(REVIEW_LIMITS.nameMax), REVIEW_MESSAGES.nameLong).refine(noControl, REVIEW_MESSAGES.name),
  consent: z.literal(true, { error: REVIEW_MESSAGES.consent }),
});
export type ReviewFields = z.infer<typeof reviewFields>;

const token = z.string().trim().min(1, REVIEW_MESSAGES.linkNotValid).max(2000, REVIEW_MESSAGES.linkNotValid);

/** The body of /api/review: read the form of the link's order, or save one book's review. */
export const reviewRequestBody = z.discriminatedUnion('action', [
  z.object({ action: z.literal('read'), token }),
  // version: the review's as the form loaded it (0: none yet), so a save from an older form is refused.
  z.object({ action: z.literal('save'), token, productId: z.string().trim().min(1).max(100), version: z.number().int().min(0).max(1_000_000), review: reviewFields }),
]);

/**
 * Where a review stands: new (waiting for the publisher), published (on the book's pages), rejected (kept off them)
 * or unpublished (published, then taken off them). Rejected and unpublished are final for the buyer.
 */
export const REVIEW_STATUSES = ['new', 'published', 'rejected', 'unpublished'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];
export const reviewStatus = z.enum(REVIEW_STATUSES);

/** What /api/review answers to `read`: the order and each of its books with the buyer's review so far. */
export const reviewFormAnswer = z.object({
  number: z.string(),
  displayName: z.string(),
  books: z.array(
    z.object({
      productId: z.string(),
      title: z.string(),
      review: z.object({ rating: z.number(), title: z.string(), body: z.string(), displayName: z.string(), status: reviewStatus, version: z.number() }).nullable(),
    }),
  ),
});
export type ReviewFormAnswer = z.infer<typeof reviewFormAnswer>;

/**
 * The name a review is shown with unless the buyer changes it: the first name and the first letter of the last
 * ("Mary Anne Smith" → "Mary S."), so a buyer is not named in full by default.
 */
export function shortDisplayName(fullName: string | null | undefined): string {
  const words = (fullName ?? '').trim().split(/\s+/).filter(Boolean);
  const first = words[0];
  if (!first || /^guest$/i.test(first)) return '';
  const last = words.length > 1 ? words.at(-1) : undefined;
  // The first character, not the first UTF-16 unit: half of an emoji or of a rare letter is not text.
  const initial = last && Array.from(last)[0]!.toLocaleUpperCase('en-AU');
  return (initial ? `${first} ${initial}.` : first).slice(0, REVIEW_LIMITS.nameMax);
}

const reviewId = z.uuid('reviewId must be a review id');
/** A note kept for the publisher when a review is rejected or unpublished (never shown to anyone else). */
const note = z.string().trim().max(REVIEW_LIMITS.noteMax, `A note can be at most ${REVIEW_LIMITS.noteMax} characters.`);

/**
 * The back office's actions on a review, through /api/admin-reviews: a new review is published or rejected, a
 * published one unpublished, a rejected or unpublished one published; any may have a public reply.
 */
export const reviewActionBody = z.discriminatedUnion('action', [
  z.object({ action: z.literal('publish'), reviewId }),
  z.object({ action: z.literal('reject'), reviewId, note }),
  z.object({ action: z.literal('unpublish'), reviewId, note }),
  z.object({
    action: z.literal('reply'),
    reviewId,
    reply: z.string().trim().max(REVIEW_LIMITS.replyMax, `A reply can be at most ${REVIEW_LIMITS.replyMax} characters.`),
  }),
]);
export type ReviewAction = z.infer<typeof reviewActionBody>;
