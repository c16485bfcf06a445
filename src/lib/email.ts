/**
 * The one rule for an email address, used by the forms, the checkout page, the functions and the staff
 * command. Plain code: the zod schemas call it (`src/lib/schemas.ts`), which the functions parse with and the
 * checkout, contact and newsletter forms check with; the back-in-stock form on the product pages calls it
 * directly, so those pages ship no validation library.
 *
 * Stricter than the address syntax mail servers allow, on purpose: an address the shop stores is later put
 * in a `mailto:` link, a CSV file and an email header, and must be one Stripe and Resend take. So the local
 * part is letters, digits and `. _ + - '` (never `? & % =`, spaces or control characters), dots only between
 * characters; the domain is dot-separated labels of letters, digits and inner hyphens, ending in a top-level
 * domain of at least two letters (or an `xn--` one).
 */
import { LIMITS } from '@/config/constants';

const LOCAL_PART = /^[A-Za-z0-9_+'-]+(?:\.[A-Za-z0-9_+'-]+)*$/;
const LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
const TOP_LEVEL = /^(?:[A-Za-z]{2,63}|xn--[A-Za-z0-9-]{1,59})$/;
/** A mailbox name is at most 64 characters (SMTP). */
const LOCAL_PART_MAX = 64;

/** True when `value` (already trimmed) is an address the shop accepts. */
export function isEmailAddress(value: string): boolean {
  if (value.length > LIMITS.emailMaxLength) return false;
  const at = value.lastIndexOf('@');
  if (at < 1) return false;
  const local = value.slice(0, at);
  const labels = value.slice(at + 1).split('.');
  if (local.length > LOCAL_PART_MAX || !LOCAL_PART.test(local)) return false;
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return false;
  return TOP_LEVEL.test(labels.at(-1) ?? '');
}
