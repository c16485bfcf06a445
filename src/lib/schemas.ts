/**
 * The zod pieces every request schema builds text fields from, so each rule is written once: an email
 * address (`isEmailAddress`), a one-line text and a multi-line text (`toSingleLine`, `toMultiLine`).
 * The functions parse with them, and the forms built on their schemas (checkout, contact, newsletter) check with
 * the same ones; pages without such a form use the plain functions.
 */
import { z } from '@/lib/zod';
import { LIMITS } from '@/config/constants';
import { isEmailAddress } from './email';
import { toMultiLine, toSingleLine } from './text';

/** A one-line text, cleaned before any length check: chain `.min()` and `.max()` on it. */
export const singleLine = (params?: Parameters<typeof z.string>[0]) => z.string(params).overwrite(toSingleLine);

/** A multi-line text (keeps its line breaks), cleaned before any length check. */
export const multiLine = (params?: Parameters<typeof z.string>[0]) => z.string(params).overwrite(toMultiLine);

/** An email address under the shop's one rule, trimmed; `invalid` is what the person is told. */
export function emailAddress(messages: { invalid: string; missing?: string; tooLong?: string }) {
  return z
    .string(messages.missing ? { error: messages.missing } : undefined)
    .trim()
    .min(1, messages.missing ?? messages.invalid)
    .max(LIMITS.emailMaxLength, messages.tooLong ?? messages.invalid)
    .refine(isEmailAddress, messages.invalid);
}
