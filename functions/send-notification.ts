/**
 * POST /api/send-notification { type: 'newsletter' | 'contact' | 'back_in_stock' | 'quote', data, turnstileToken? }
 *
 * The website's four forms. Browsers may not insert these rows themselves: this function is the only way in, so
 * every request has passed its bot-check and its rate limit. With TURNSTILE_SECRET_KEY set, a request without a
 * passing token (none, a refused one, or one that could not be checked) is refused with 403 'Verification
 * failed' and nothing is stored or sent; a deploy without it answers 503. Only the local server runs without a
 * bot-check.
 *
 * - contact: the message is stored and the publisher emailed.
 * - quote: a school's or parish's request for a quote (src/features/on-account/contract.ts) is stored for the back
 *   office's quotes and the publisher emailed; 404 when a book is not one the shop sells.
 * - newsletter, back_in_stock ("Email me when it's available"): confirmed opt-in. The sign-up is only a request;
 *   the address gets one email with a confirmation link (mail-links.ts) and nothing else until it is followed
 *   (functions/email-confirm.ts). A pending address is sent at most one more confirmation a day; an address that
 *   unsubscribed is subscribed again only from its own inbox; an address already confirmed on the list is told so
 *   in its own inbox (at most once a day). The answer is the same for a new, pending or confirmed address, whether
 *   an email went out now or earlier today, so the form tells a stranger nothing about the address.
 *
 * Answers: 200 { ok: true } once the message is stored or the email is on its way (a publisher's email that fails
 * is only logged); 422 for a waiting list of a book that can be bought now; 404 for a book the shop does not have; 4xx { error } with a readable message for any
 * other bad request (413 past the body limit); 502 when nothing could be stored or sent; 503 where the bot-check
 * or the marketing identity is not set up.
 */
import { z } from 'zod';
import { HUMAN_CHECK_ACTIONS } from '../src/config/constants';
import { readServerEnv, type ServerEnv } from '../src/config/env';
import { SITE } from '../src/config/site';
import { type ContactNotification, notificationRequestSchema, type NotificationRequest, type QuoteNotification } from '../src/features/forms/notification';
import { QUOTE_MESSAGES } from '../src/features/on-account/contract';
import { alreadySignedUpEmail, type SignUp, signUpConfirmationEmail } from './_lib/marketing-emails';
import { notificationRecipient } from './_lib/fulfilment';
import { type FunctionConfig, handleJson, json, problem } from './_lib/http';
import { confirmPageUrl, type MailLink, marketingIdentity, signMailLink, unsubscribePageUrl } from './_lib/mail-links';
import { outcomeAnswer, serviceClient } from './_lib/supabase-admin';
import { selectEmailProvider, selectHumanCheck } from './_lib/providers/select';
import type { EmailMessage } from './_lib/providers/email';
import type { HumanCheckResult } from './_lib/providers/human-check';
import { siteOrigin } from './_lib/runtime';

export const config: FunctionConfig = {
  path: '/api/send-notification',
  method: ['POST'],
  rateLimit: { windowLimit: 10, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};

/** The visitor's address as Netlify (or a proxy) reports it; Turnstile uses it as an extra signal. */
function clientIp(request: Request): string | undefined {
  const ip = request.headers.get('x-nf-client-connection-ip') ?? request.headers.get('x-forwarded-for')?.split(',')[0];
  return ip?.trim() || undefined;
}

/** Null when the request may go on (passed, or no bot-check on the local server); else why it may not. */
async function humanCheckFailure(env: ServerEnv, request: Request, body: NotificationRequest): Promise<string | null> {
  const check = selectHumanCheck(env);
  if (!check.verifies) return null;
  const token = body.turnstileToken?.trim() ?? '';
  if (!token) return 'missing-input-response';
  let result: HumanCheckResult;
  try {
    result = await check.verify(token, { action: HUMAN_CHECK_ACTIONS[body.type], hostname: new URL(request.url).hostname, remoteIp: clientIp(request) });
  } catch (error) {
    console.error('[send-notification] The bot-check could not be run.', error);
    return 'verification-error';
  }
  return result.ok ? null : result.reason;
}

export function contactNotice(body: ContactNotification, to: string): EmailMessage {
  // The schema has already made name, email and subject single lines and cleaned the message.
  const { name, email, subject, message } = body.data;
  return {
    to,
    subject: `Contact form: ${subject}`,
    replyTo: email,
    text: [
      `New message from the ${SITE.name} contact form.`,
      '',
      `Name: ${name}`,
      `Email: ${email}`,
      `Subject: ${subject}`,
      '',
      'Message:',
      message,
      '',
      `Reply to this email to answer ${name}.`,
    ].join('\n'),
  };
}

/** The publisher's email of a quote request: who, where, which books, and Reply goes to the school. */
export function quoteNotice(body: QuoteNotification, titles: ReadonlyMap<string, string>, to: string, siteOrigin: string): EmailMessage {
  const { organisation, contactName, email, phone, address, lines, neededBy, poNumber, note } = body.data;
  return {
    to,
    subject: `Quote request: ${organisation}`,
    replyTo: email,
    text: [
      `A quote request from the ${SITE.name} schools page.`,
      '',
      `Organisation: ${organisation}`,
      `Contact: ${contactName} <${email}>, ${phone}`,
      `Address: ${[address.line1, address.line2, address.city, address.state, address.postcode, address.country].filter(Boolean).join(', ')}`,
      ...(poNumber ? [`PO number: ${poNumber}`] : []),
      ...(neededBy ? [`Needed by: ${neededBy}`] : []),
      '',
      ...lines.map((line) => `${titles.get(line.productId) ?? line.productId} × ${line.quantity}`),
      ...(note ? ['', 'Note:', note] : []),
      '',
      `Make the invoice from it in the back office: ${siteOrigin}/admin`,
    ].join('\n'),
  };
}

/** To the school, at once: its request has arrived, with what it asked for and its PO number, and what comes next. */
function quoteAcknowledgement(body: QuoteNotification, titles: ReadonlyMap<string, string>): EmailMessage {
  const { organisation, contactName, email, lines, poNumber } = body.data;
  return {
    to: email,
    subject: `We have your quote request${poNumber ? ` (PO number ${poNumber})` : ''}`,
    text: [
      `Hello ${contactName},`,
      '',
      `Thank you: ${SITE.name} has received ${organisation}'s quote request${poNumber ? ` for PO number ${poNumber}` : ''}:`,
      ...lines.map((line) => `  ${titles.get(line.productId) ?? line.productId} × ${line.quantity}`),
      '',
      `We will reply with a tax invoice${poNumber ? ` naming PO number ${poNumber}` : ''} and our ABN, with its own invoice number (INV-…), to pay by bank transfer or card.`,
      `Questions? Reply to this email or write to ${SITE.email}.`,
      '',
      `${SITE.name}, Sydney`,
    ].join('\n'),
  };
}

const quoteAnswer = outcomeAnswer('quote_request_create', { saved: { id: z.uuid() }, unknown_book: { product_id: z.string() } });

/** A quote request: stored (every book must be one the shop sells), then the publisher emailed. */
async function requestQuote(env: ServerEnv, request: Request, body: QuoteNotification): Promise<Response> {
  const db = serviceClient(env);
  const { data, error } = await db.rpc('quote_request_create', {
    p_quote: {
      organisation: body.data.organisation,
      contact_name: body.data.contactName,
      email: body.data.email,
      phone: body.data.phone,
      address: body.data.address,
      lines: body.data.lines.map((l) => ({ product_id: l.productId, quantity: l.quantity })),
      needed_by: body.data.neededBy ?? null,
      po_number: body.data.poNumber ?? null,
      note: body.data.note ?? null,
    },
  });
  if (error) {
    console.error('[send-notification] Storing the quote request failed.', error);
    return problem(502, QUOTE_MESSAGES.notSaved);
  }
  const answer = quoteAnswer.parse(data);
  if (answer.outcome === 'unknown_book') return problem(404, QUOTE_MESSAGES.unknownBook);
  const books = await db
    .from('products')
    .select('id, title')
    .in(
      'id',
      body.data.lines.map((l) => l.productId),
    );
  const titles = new Map((books.data ?? []).map((b: { id: string; title: string }) => [b.id, b.title]));
  const email = selectEmailProvider(env);
  try {
    await email.send({ ...quoteNotice(body, titles, notificationRecipient(env), siteOrigin(env, request)), idempotencyKey: `quote-request-${answer.id}` });
  } catch (sendError) {
    console.error(`[send-notification] ${email.name} could not send the quote request notice; the request is stored.`, sendError);
  }
  try {
    await email.send({ ...quoteAcknowledgement(body, titles), idempotencyKey: `quote-acknowledgement-${answer.id}` });
  } catch (sendError) {
    console.error(`[send-notification] ${email.name} could not acknowledge the quote request to the school; the request is stored.`, sendError);
  }
  return json({ ok: true });
}

export const BOOK_FOR_SALE = 'This book is in stock: you can order it now, so there is no list to wait on.';
const NOT_SAVED = 'Your details could not be saved. Please try again later.';

const emailed = { id: z.string(), sent_at: z.string() };
const newsletterAnswer = outcomeAnswer('newsletter_request', { send: emailed, notice: emailed, wait: { id: z.string() } });
const bookListAnswer = outcomeAnswer('back_in_stock_request', { send: emailed, notice: emailed, wait: { id: z.string() }, for_sale: {}, unknown: {} });

/**
 * A newsletter or waiting-list sign-up: asks the database what to do, and sends the confirmation (or, to an address
 * already confirmed, the note saying so) when it says so. Every outcome answers the same 200.
 */
async function signUp(env: ServerEnv, request: Request, body: Exclude<NotificationRequest, ContactNotification | QuoteNotification>): Promise<Response> {
  const db = serviceClient(env);
  const identity = marketingIdentity(env, siteOrigin(env, request));
  let what: SignUp = { list: 'newsletter' };
  const { data, error } =
    body.type === 'newsletter'
      ? await db.rpc('newsletter_request', { p_email: body.data.email, p_page: body.data.page ?? null })
      : await db.rpc('back_in_stock_request', { p_product_id: body.data.productId, p_email: body.data.email });
  if (error) {
    console.error(`[send-notification] The ${body.type} sign-up could not be stored.`, error);
    return problem(502, NOT_SAVED);
  }
  const answer = (body.type === 'newsletter' ? newsletterAnswer : bookListAnswer).parse(data);
  switch (answer.action) {
    case 'unknown':
      return problem(404, 'We could not find that book in the shop.');
    case 'for_sale':
      return problem(422, BOOK_FOR_SALE);
    case 'wait':
      return json({ ok: true });
  }
  if (body.type === 'back_in_stock') {
    const book = await db.from('products').select('id, title').eq('id', body.data.productId).single();
    if (book.error) throw book.error;
    what = { list: 'availability', book: z.object({ id: z.string(), title: z.string() }).parse(book.data) };
  }
  const { siteOrigin: origin, postalAddress, secret } = identity;
  let message: EmailMessage;
  if (answer.action === 'notice') {
    const link: MailLink = body.type === 'newsletter' ? { kind: 'newsletter-unsubscribe', subscriptionId: answer.id } : { kind: 'availability-unsubscribe', email: body.data.email };
    const unsubscribeUrl = unsubscribePageUrl(origin, await signMailLink(secret, link));
    message = alreadySignedUpEmail({ to: body.data.email, signUp: what, unsubscribeUrl, postalAddress, siteOrigin: origin }, `${what.list}-already-${answer.id}-${answer.sent_at}`);
  } else {
    const token = await signMailLink(secret, body.type === 'newsletter' ? { kind: 'newsletter-confirm', subscriptionId: answer.id } : { kind: 'availability-confirm', requestId: answer.id });
    const confirmUrl = confirmPageUrl(origin, token);
    const declineUrl = confirmPageUrl(origin, token, 'decline');
    message = signUpConfirmationEmail({ to: body.data.email, signUp: what, confirmUrl, declineUrl, postalAddress, siteOrigin: origin }, `${what.list}-confirmation-${answer.id}-${answer.sent_at}`);
  }
  const email = selectEmailProvider(env);
  try {
    await email.send(message);
  } catch (sendError) {
    console.error(`[send-notification] ${email.name} could not send the ${what.list} ${answer.action === 'notice' ? 'note' : 'confirmation'}; the request is taken back.`, sendError);
    const undo = await db.rpc('sign_up_not_sent', { p_list: what.list, p_id: answer.id, p_sent_at: answer.sent_at });
    if (undo.error) console.error('[send-notification] Taking the request back failed.', undo.error);
    return problem(502, NOT_SAVED);
  }
  return json({ ok: true });
}

export default handleJson(notificationRequestSchema, async (body, request) => {
  const env = readServerEnv();
  const failure = await humanCheckFailure(env, request, body);
  if (failure) {
    console.warn(`[send-notification] ${body.type}: bot-check failed (${failure}); nothing stored or sent.`);
    return problem(403, 'Verification failed');
  }
  if (body.type === 'quote') return requestQuote(env, request, body);
  if (body.type !== 'contact') return signUp(env, request, body);

  const { error } = await serviceClient(env).from('contact_submissions').insert(body.data);
  if (error) {
    console.error('[send-notification] Storing the contact message failed.', error);
    return problem(502, NOT_SAVED);
  }
  const email = selectEmailProvider(env);
  try {
    await email.send(contactNotice(body, notificationRecipient(env)));
  } catch (sendError) {
    console.error(`[send-notification] ${email.name} could not send the contact notification; the message is stored.`, sendError);
  }
  return json({ ok: true });
});
