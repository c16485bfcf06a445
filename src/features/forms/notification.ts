/**
 * The body of POST /api/send-notification, shared by the forms (its type) and the function (its schema).
 * The schema also cleans the text fields, so what is stored is what the publisher is emailed.
 */
import { z } from '../../lib/zod';
import { HUMAN_CHECK_TOKEN_MAX_LENGTH } from '../../config/constants';
import { quoteRequestDataSchema } from '../on-account/contract';
import { contactData, email, newsletterData } from './notification-data';

const token = z.string({ error: 'must be a string (the bot-check token).' }).max(HUMAN_CHECK_TOKEN_MAX_LENGTH, 'The verification token is too long.').optional();

export const newsletterNotificationSchema = z.object({ type: z.literal('newsletter'), data: newsletterData, turnstileToken: token });

/** "Email me when it's available" on a sold-out book: the address and the book's id. */
const backInStockNotificationSchema = z.object({
  type: z.literal('back_in_stock'),
  data: z.object(
    {
      email,
      // Whether the shop has this book is the database's answer (404 otherwise).
      productId: z.string({ error: 'Please say which book.' }).trim().min(1, 'Please say which book.').max(100, 'That is not a book of this shop.'),
    },
    { error: 'must be an object with the email address and the book.' },
  ),
  turnstileToken: token,
});

/** A school's or parish's request for a quote (the quote form, on the contract's schema). */
const quoteNotificationSchema = z.object({ type: z.literal('quote'), data: quoteRequestDataSchema, turnstileToken: token });
export type QuoteNotification = z.infer<typeof quoteNotificationSchema>;

export const contactNotificationSchema = z.object({ type: z.literal('contact'), data: contactData, turnstileToken: token });

export const notificationRequestSchema = z.record(z.string(), z.unknown(), { error: 'The request body must be a JSON object with type and data.' }).pipe(
  z.discriminatedUnion('type', [newsletterNotificationSchema, contactNotificationSchema, backInStockNotificationSchema, quoteNotificationSchema], {
    error: "must be 'newsletter', 'contact', 'back_in_stock' or 'quote'.",
  }),
);

export type NotificationRequest = z.infer<typeof notificationRequestSchema>;
export type ContactNotification = z.infer<typeof contactNotificationSchema>;
