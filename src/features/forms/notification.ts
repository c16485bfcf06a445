/**
 * The body of POST /api/send-notification, shared by the forms (its type) and the function (its schema).
 * The schema also cleans the text fields, so what is stored is what the publisher is emailed.
 */
import { z } from 'zod';
import { EMAIL_PATTERN, LIMITS } from '../../config/constants';

/** Turnstile tokens are at most 2048 characters. */
export const HUMAN_CHECK_TOKEN_MAX_LENGTH = 2048;

/** Removes line breaks and other control characters from a one-line value (a name, an email subject). */
export const oneLine = (value: string) => value.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
/** Keeps line breaks and tabs in a multi-line value, drops every other control character. */
export const multiLine = (value: string) => value.replace(/\r\n?/g, '\n').replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '');

const email = z
  .string({ error: 'Please enter your email address.' })
  .trim()
  .min(1, 'Please enter your email address.')
  .max(LIMITS.emailMaxLength, `The email address can be at most ${LIMITS.emailMaxLength} characters.`)
  .regex(EMAIL_PATTERN, 'Please enter a valid email address.');

const token = z.string({ error: 'must be a string (the bot-check token).' }).max(HUMAN_CHECK_TOKEN_MAX_LENGTH, 'The verification token is too long.').optional();

/** Stored and emailed as cleaned here: Postgres text cannot hold NUL, and a subject must stay one line. */
const text = (what: string, max: number, clean: (value: string) => string = oneLine) =>
  z
    .string({ error: `Please enter ${what}.` })
    .transform(clean)
    .pipe(
      z
        .string()
        .trim()
        .min(1, `Please enter ${what}.`)
        .max(max, `The ${what.replace(/^(a|your) /, '')} can be at most ${max} characters.`),
    );

export const newsletterNotificationSchema = z.object({
  type: z.literal('newsletter'),
  data: z.object({ email }, { error: 'must be an object with the email address.' }),
  turnstileToken: token,
});

export const contactNotificationSchema = z.object({
  type: z.literal('contact'),
  data: z.object(
    {
      name: text('your name', LIMITS.nameMaxLength),
      email,
      subject: text('a subject', LIMITS.subjectMaxLength),
      message: text('a message', LIMITS.messageMaxLength, multiLine),
    },
    { error: 'must be an object with name, email, subject and message.' },
  ),
  turnstileToken: token,
});

export const notificationRequestSchema = z
  .record(z.string(), z.unknown(), { error: 'The request body must be a JSON object with type and data.' })
  .pipe(z.discriminatedUnion('type', [newsletterNotificationSchema, contactNotificationSchema], { error: "must be 'newsletter' or 'contact'." }));

export type NotificationRequest = z.infer<typeof notificationRequestSchema>;
export type NewsletterNotification = z.infer<typeof newsletterNotificationSchema>;
export type ContactNotification = z.infer<typeof contactNotificationSchema>;
