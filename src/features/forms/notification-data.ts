/**
 * What the contact and sign-up forms send in POST /api/send-notification's `data`: the function parses these
 * schemas (in `notification.ts`) and the forms validate with them (react-hook-form's zod resolver), so each rule
 * and its words are written once. Apart from `notification.ts`, so a form's page downloads these and not the
 * schools' quote request.
 */
import { z } from '../../lib/zod';
import { LIMITS } from '../../config/constants';
import { emailAddress, multiLine, singleLine } from '../../lib/schemas';

export const email = emailAddress({
  missing: 'Please enter your email address.',
  tooLong: `The email address can be at most ${LIMITS.emailMaxLength} characters.`,
  invalid: 'Please enter a valid email address.',
});

/** Stored and emailed as cleaned here: Postgres text cannot hold NUL, and a subject must stay one line. */
const text = (what: string, max: number, kind: typeof singleLine = singleLine) =>
  kind({ error: `Please enter ${what}.` })
    .min(1, `Please enter ${what}.`)
    .max(max, `The ${what.replace(/^(a|your) /, '')} can be at most ${max} characters.`);

/** The page the sign-up form was on (its path), recorded as where the subscriber agreed; anything else is dropped. */
const signupPage = z
  .string()
  .max(300)
  .regex(/^\/[^\s?#]*$/)
  .optional()
  .catch(undefined);

export const newsletterData = z.object({ email, page: signupPage }, { error: 'must be an object with the email address.' });

export const contactData = z.object(
  {
    name: text('your name', LIMITS.nameMaxLength),
    email,
    subject: text('a subject', LIMITS.subjectMaxLength),
    message: text('a message', LIMITS.messageMaxLength, multiLine),
  },
  { error: 'must be an object with name, email, subject and message.' },
);
