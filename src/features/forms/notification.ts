/**
 * The body of POST /api/send-notification, shared by the forms (its type) and the function (its schema).
 * Relative imports only: the function bundler does not know the `@/` alias.
 */
import { z } from 'zod';
import { EMAIL_PATTERN, LIMITS } from '../../config/constants';

/** Turnstile tokens are at most 2048 characters. */
export const HUMAN_CHECK_TOKEN_MAX_LENGTH = 2048;

const email = z
  .string({ error: 'Please enter your email address.' })
  .trim()
  .min(1, 'Please enter your email address.')
  .max(LIMITS.emailMaxLength, `The email address can be at most ${LIMITS.emailMaxLength} characters.`)
  .regex(EMAIL_PATTERN, 'Please enter a valid email address.');

const token = z
  .string({ error: 'must be a string (the bot-check token).' })
  .max(HUMAN_CHECK_TOKEN_MAX_LENGTH, 'The verification token is too long.')
  .optional();

const text = (what: string, max: number) =>
  z
    .string({ error: `Please enter ${what}.` })
    .trim()
    .min(1, `Please enter ${what}.`)
    .max(max, `The ${what.replace(/^(a|your) /, '')} can be at most ${max} characters.`);

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
      message: text('a message', LIMITS.messageMaxLength),
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
