/**
 * The marketing emails: the newsletter, a sign-up's confirmation, the availability mailing, the checkout reminder and the
 * review request. Each carries List-Unsubscribe and a visible unsubscribe link, and goes only to an address that has
 * not opted out.
 */
import { CONSENT } from '../../src/config/constants';
import { SITE } from '../../src/config/site';
import { renderNewsletter } from '../../src/features/newsletter/render';
import { formatLongDate } from '../../src/lib/format';
import { productPath } from '../../src/lib/paths';
import { quantityLine } from '../../src/features/tax-invoice/tax-invoice';
import { signature } from './emails';
import type { OrderWithItems } from './orders';
import type { EmailMessage } from './providers/email';

/**
 * The mailing that tells everyone waiting for a book that it can be bought again, or pre-ordered before its release
 * date (charged now, shipped that week): its subject and words.
 */
export function availabilityMailing(book: { id: string; title: string; releaseDate?: string }, siteOrigin: string): { subject: string; markdown: string } {
  const link = `[see the book](${siteOrigin}${productPath(book.id)})`;
  return {
    subject: book.releaseDate ? `${book.title} can be pre-ordered` : `${book.title} is available`,
    markdown: [
      'Good news!',
      '',
      book.releaseDate
        ? `**${book.title}** can be pre-ordered now. It is out on ${formatLongDate(book.releaseDate)} and ships that week; your card is charged when you order. You asked us to tell you when it was available: ${link}.`
        : `**${book.title}** can be ordered again. You asked us to tell you when it was available: ${link}.`,
      '',
      "This is the only email you'll get about it: your address is now off the list for this book.",
      '',
      signature,
    ].join('\n'),
  };
}

/** What a confirmation is for: the newsletter, or one book's availability email. */
export type SignUp = { list: 'newsletter' } | { list: 'availability'; book: { id: string; title: string } };

/**
 * The one email a sign-up sends: the link that confirms it, "this wasn't me", and who is asking. Nothing else is
 * sent to the address until the link is followed.
 */
export function signUpConfirmationEmail(
  input: { to: string; signUp: SignUp; confirmUrl: string; declineUrl: string; postalAddress: string; siteOrigin: string },
  idempotencyKey: string,
): EmailMessage {
  const what = input.signUp.list === 'newsletter' ? `the ${SITE.name} newsletter` : `one email from ${SITE.name} when ${input.signUp.book.title} is available`;
  return {
    to: input.to,
    subject: input.signUp.list === 'newsletter' ? `Please confirm your subscription to the ${SITE.name} newsletter` : `Please confirm: email me when ${input.signUp.book.title} is available`,
    text: [
      'Hello,',
      '',
      `Someone, we hope you, asked on our website (${input.siteOrigin}) to receive ${what} at this address.`,
      '',
      `To confirm, open this link within ${CONSENT.confirmationValidDays} days:`,
      input.confirmUrl,
      '',
      `This wasn't me: ${input.declineUrl}`,
      "If you did not ask for this, you can also simply ignore this email. Without your confirmation we won't write to you again, and the request is deleted.",
      '',
      `${SITE.publisher}, ${input.postalAddress}`,
      SITE.email,
    ].join('\n'),
    idempotencyKey,
  };
}

/**
 * A sign-up for an address already confirmed on that list: the form answered it as any other sign-up, so its owner
 * is told here, in their own inbox, that nothing changed (at most once a day), with the way off the list.
 */
export function alreadySignedUpEmail(input: { to: string; signUp: SignUp; unsubscribeUrl: string; postalAddress: string; siteOrigin: string }, idempotencyKey: string): EmailMessage {
  const book = input.signUp.list === 'availability' ? input.signUp.book.title : null;
  return {
    to: input.to,
    subject: book ? `You're already on the list for ${book}` : `You're already subscribed to the ${SITE.name} newsletter`,
    text: [
      'Hello,',
      '',
      `Someone, we hope you, asked on our website (${input.siteOrigin}) to ${book ? `email this address when ${book} is available` : `subscribe this address to the ${SITE.name} newsletter`}.`,
      book
        ? `This address is already on the list, so nothing has changed: we'll email you once when ${book} is available.`
        : "You're already subscribed, so nothing has changed: there is no need to subscribe again.",
      '',
      `If you would rather not hear from us, unsubscribe with one click: ${input.unsubscribeUrl}`,
      '',
      `${SITE.publisher}, ${input.postalAddress}`,
      SITE.email,
    ].join('\n'),
    idempotencyKey,
  };
}

/** How a marketing email is unsubscribed from: the page, the one-click headers, and the postal address at its foot. */
type Unsubscribe = { pageUrl: string; headers: Record<string, string>; postalAddress: string };

/** A marketing email: its words, then `unsubscribeWords` with the link, the signature and the postal address; the one-click headers with it. */
function withUnsubscribe(message: { to: string; subject: string; idempotencyKey: string }, lines: string[], unsubscribeWords: string, unsubscribe: Unsubscribe): EmailMessage {
  return {
    ...message,
    text: [...lines, `${unsubscribeWords}: ${unsubscribe.pageUrl}`, '', signature, `${SITE.publisher}, ${unsubscribe.postalAddress}`].join('\n'),
    headers: unsubscribe.headers,
  };
}

/**
 * The one reminder to a shopper who agreed to it at checkout and left the payment page unpaid: their books,
 * a link that puts them back in the cart at today's prices, and an unsubscribe link (in the text and the headers).
 */
export function checkoutReminderEmail(order: OrderWithItems, cartUrl: string, unsubscribe: Unsubscribe): EmailMessage {
  return withUnsubscribe(
    { to: order.customerEmail, subject: `Your books are still waiting at ${SITE.name}`, idempotencyKey: `checkout-reminder-${order.id}` },
    [
      'Hello,',
      '',
      'You left the payment page before paying, so nothing was charged. Your books are still here:',
      '',
      ...order.items.map((item) => quantityLine(item.title, item.quantity)),
      '',
      `Bring them back to your cart: ${cartUrl}`,
      'Prices and stock are checked again when you open it.',
      '',
      'You asked us for this one reminder when you checked out; we will not send another about this order.',
    ],
    'To get no reminders from us again, unsubscribe with one click',
    unsubscribe,
  );
}

/**
 * One reader's copy of a newsletter or availability mailing: the words, the unsubscribe link at the foot, and the
 * headers that give mail programs their own one-click Unsubscribe button (RFC 8058).
 */
export function newsletterEmail(input: {
  to: string;
  subject: string;
  markdown: string;
  list: 'newsletter' | 'availability';
  pageUrl: string;
  headers: Record<string, string>;
  postalAddress: string;
  /** The shop's origin: the email links to it, and the Markdown's site paths resolve against it. */
  siteOrigin: string;
}): EmailMessage {
  const { html, text } = renderNewsletter({
    subject: input.subject,
    siteOrigin: input.siteOrigin,
    markdown: input.markdown,
    unsubscribeUrl: input.pageUrl,
    list: input.list,
    postalAddress: input.postalAddress,
  });
  return { to: input.to, subject: input.subject, text, html, headers: input.headers };
}

/**
 * The one review request of a delivered order: a link to review each book (the form opens on that book), and,
 * as it is marketing email, an unsubscribe link in the text and the headers.
 */
export function reviewRequestEmail(
  request: { orderId: string; number: string; to: string; name: string | null; books: readonly { title: string; url: string }[] },
  unsubscribe: Unsubscribe,
): EmailMessage {
  return withUnsubscribe(
    { to: request.to, subject: `How was your order ${request.number}?`, idempotencyKey: `review-request-${request.orderId}` },
    [
      request.name ? `Hello ${request.name},` : 'Hello,',
      '',
      `We hope order ${request.number} reached you safely. How was the book received? A few words from you help other families, godparents and teachers choose.`,
      '',
      ...request.books.map((book) => `Review ${book.title}: ${book.url}`),
      '',
      'We read every review before it goes on the site. We ask once per order and will not ask about this one again.',
    ],
    'To get no more emails like this from us, unsubscribe with one click',
    unsubscribe,
  );
}
