/**
 * Gift orders: the message's one rule, shared by the checkout page (its live count and its message before
 * sending) and the server (which refuses what breaks it; the database checks it again). A message is plain
 * text: up to the limit in characters (as a person counts them, so an emoji is one), on a few lines, with no
 * control characters (a tab, a NUL, a form feed), none of which a printed slip can show honestly. Invisible
 * direction marks and overrides (which text pasted from a phone or a right-to-left page often carries) are
 * dropped without a word: the buyer cannot see them, so could not remove them.
 */
import { LIMITS } from '@/config/constants';

export const GIFT_MESSAGES = {
  tooLong: `Please keep the gift message to ${LIMITS.giftMessageMaxLength} characters or fewer.`,
  tooManyLines: `Please keep the gift message to ${LIMITS.giftMessageMaxLines} lines or fewer.`,
  control: 'The gift message has a character we cannot print (such as a tab or a control code). Please remove it.',
  recipient: "Please enter the recipient's full name for the parcel's label.",
} as const;

/** Control characters except the line break, DEL, the C1 controls and the Unicode line separators. */
const UNPRINTABLE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/;

/** The bidirectional marks, embeddings, overrides and isolates (ALM, LRM, RLM, LRE-RLO, LRI-PDI). */
const DIRECTION_MARKS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * The message as stored: direction marks dropped, Windows and old Mac line breaks as `\n`, no spaces or blank
 * lines around it.
 */
export const normaliseGiftMessage = (text: string): string => text.replace(DIRECTION_MARKS, '').replace(/\r\n?/g, '\n').trim();

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/** Characters as a person counts them (grapheme clusters: a family emoji or a flag is one), after normalising. */
export const giftMessageLength = (text: string): number => [...graphemes.segment(normaliseGiftMessage(text))].length;

/** What is wrong with a gift message, or null when it can be printed as it is. */
export function giftMessageProblem(text: string): string | null {
  const message = normaliseGiftMessage(text);
  if (UNPRINTABLE.test(message)) return GIFT_MESSAGES.control;
  if (giftMessageLength(message) > LIMITS.giftMessageMaxLength) return GIFT_MESSAGES.tooLong;
  if (message.split('\n').length > LIMITS.giftMessageMaxLines) return GIFT_MESSAGES.tooManyLines;
  return null;
}

/** The gift choices as the checkout sends them. */
export interface GiftChoice {
  isGift: boolean;
  message: string;
  /** True unless the buyer asked for the prices on the gift slip: a gift's parcel carries none by default. */
  hidePrices: boolean;
  /** The buyer's own name (the delivery name is the recipient's): whom the order and the gift slip say it is from. */
  buyerName?: string;
  /** Leave the buyer's name off the gift slip (it otherwise says whom the gift is from, unless the message is signed). */
  hideSender?: boolean;
}

export const NO_GIFT: GiftChoice = { isGift: false, message: '', hidePrices: true, hideSender: false, buyerName: '' };

/** A last line that signs the message: "Love, Sam", "From Sam", "— Sam", "Lots of love", "xx Sam"… */
const SIGN_OFF = /^\s*(?:love\b|lots of love|all my love|with love|much love|from\b|cheers\b|best wishes|warm(?:est)? wishes|regards|xx|[—–-]|~)/i;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Who the gift slip says the gift is from: the buyer's name, unless the message already signs it (its last line is a
 * sign-off, or it names the buyer by their full or first name), or the buyer's name is unknown. Null: print no sender.
 */
export function giftSlipSender(message: string | null | undefined, buyerName: string | null | undefined): string | null {
  const name = (buyerName ?? '').trim();
  if (!name) return null;
  const text = normaliseGiftMessage(message ?? '');
  if (!text) return name;
  const lines = text.split('\n').filter((line) => line.trim());
  if (SIGN_OFF.test(lines.at(-1) ?? '')) return null;
  const first = name.split(/\s+/)[0] ?? '';
  const names = [name, ...(first.length >= 2 ? [first] : [])];
  const signed = names.some((n) => new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(n)}(?![\\p{L}\\p{N}])`, 'iu').test(text));
  return signed ? null : name;
}
