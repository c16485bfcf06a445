/**
 * The one email rule, as the pages (checkout, forms) and the servers (the shared zod schema) apply it: what
 * Stripe and Resend take, and nothing that could smuggle a header into a mailto: link or an email.
 */
import { describe, expect, it } from 'vitest';
import { LIMITS } from '@/config/constants';
import { isEmailAddress } from '@/lib/email';
import { emailAddress } from '@/lib/schemas';
import { CHECKOUT_MESSAGES } from '@/features/checkout/contract';
import { newsletterNotificationSchema } from '@/features/forms/notification';
import { email as checkoutEmail } from '../../src/features/checkout/order-fields';
import { checkoutFormProblem } from '../helpers/checkout-form';

const ACCEPTED = [
  'jane@example.com',
  'parent@example.com.au',
  "o'brien@example.com.au",
  'first.last+tag@sub.example.co.uk',
  'MIXED.Case@Example.ORG',
  'a@b.co',
  'under_score-dash@my-parish.org.nz',
  'digits123@123example.com',
  'user@xn--80ak6aa92e.xn--p1ai',
];

const REJECTED: Array<[string, string]> = [
  ['a@x.co?bcc=spy%40evil.example', 'a query that would add a header to a mailto: link'],
  ['jane?subject=hi@example.com', 'a question mark'],
  ['jane&co@example.com', 'an ampersand'],
  ['jane%40evil@example.com', 'a percent sign'],
  ['jane doe@example.com', 'a space'],
  ['jane@exam ple.com', 'a space in the domain'],
  ['jane\r\nbcc:x@example.com', 'a line break'],
  ['jane\u0000@example.com', 'NUL'],
  ['jane\u0085@example.com', 'a C1 control character'],
  ['jane@example..com', 'a doubled dot in the domain'],
  ['jane..doe@example.com', 'a doubled dot in the local part'],
  ['.jane@example.com', 'a leading dot in the local part'],
  ['jane.@example.com', 'a trailing dot in the local part'],
  ['jane@.example.com', 'a leading dot in the domain'],
  ['jane@example.com.', 'a trailing dot in the domain'],
  ['jane@example.c', 'a one-letter top-level domain'],
  ['jane@example.c0m', 'a top-level domain with a digit'],
  ['jane@-example.com', 'a label starting with a hyphen'],
  ['jane@example-.com', 'a label ending with a hyphen'],
  ['parent@localhost', 'no top-level domain'],
  ['jane@@example.com', 'two at signs'],
  ['jane@exa@mple.com', 'an at sign in the domain'],
  ['@example.com', 'no local part'],
  ['jane@', 'no domain'],
  ['jane', 'no at sign'],
  ['', 'nothing'],
  ['ü@ß.de', 'non-ASCII characters'],
  ['jane=x@example.com', 'an equals sign'],
  ['"jane doe"@example.com', 'a quoted local part'],
  [`${'a'.repeat(65)}@example.com`, 'a mailbox over 64 characters'],
  [`${'a'.repeat(64)}@${'d'.repeat(64)}.com`, 'a label over 63 characters'],
];

describe('isEmailAddress: the one rule', () => {
  it.each(ACCEPTED)('accepts %s', (address) => expect(isEmailAddress(address)).toBe(true));
  it.each(REJECTED)('rejects %j (%s)', (address) => expect(isEmailAddress(address)).toBe(false));

  it('accepts up to 254 characters and no more', () => {
    const domain = (length: number) => `${'d'.repeat(63)}.${'e'.repeat(63)}.${'f'.repeat(length - 63 - 1 - 63 - 1 - 4)}.com`;
    const longest = `${'a'.repeat(64)}@${domain(LIMITS.emailMaxLength - 65)}`;
    expect(longest).toHaveLength(254);
    expect(isEmailAddress(longest)).toBe(true);
    expect(isEmailAddress(`${'a'.repeat(64)}@${domain(LIMITS.emailMaxLength - 64)}`)).toBe(false);
  });
});

describe('every place applies the same rule with its own message', () => {
  const address = { fullName: 'Jane', phone: '', addressLine1: '1 Church St', addressLine2: '', city: 'Parramatta', state: 'NSW', postalCode: '2150', country: 'AU' };
  const pageProblem = (email: string) => checkoutFormProblem({ email, address });
  const serverSchemas = [
    ['the shared schema', emailAddress({ invalid: 'Please enter a valid email address.' })],
    ['checkout (server)', checkoutEmail],
  ] as const;

  it.each([...ACCEPTED, '  padded@example.com  '])('%s passes on the page and on the server', async (value) => {
    expect(await pageProblem(value)).toBeNull();
    for (const [, schema] of serverSchemas) expect(schema.safeParse(value).success).toBe(true);
    expect(newsletterNotificationSchema.safeParse({ type: 'newsletter', data: { email: value } }).success).toBe(true);
  });

  it.each(REJECTED.filter(([value]) => value !== ''))('%j is refused on the page and on the server, with the texts used today', async (value) => {
    expect(await pageProblem(value)).toEqual({ field: 'email', message: CHECKOUT_MESSAGES.email });
    expect(checkoutEmail.safeParse(value).error?.issues[0]?.message).toBe(CHECKOUT_MESSAGES.email);
    const newsletter = newsletterNotificationSchema.safeParse({ type: 'newsletter', data: { email: value } });
    const expected = value.trim().length > LIMITS.emailMaxLength ? /at most 254 characters/ : /^Please enter a valid email address\.$/;
    expect(newsletter.error?.issues[0]?.message).toMatch(expected);
  });

  it('a missing or too long address keeps its own message in the forms', () => {
    expect(newsletterNotificationSchema.safeParse({ type: 'newsletter', data: { email: '  ' } }).error?.issues[0]?.message).toBe('Please enter your email address.');
    expect(newsletterNotificationSchema.safeParse({ type: 'newsletter', data: { email: `${'a'.repeat(250)}@example.com` } }).error?.issues[0]?.message).toBe(
      'The email address can be at most 254 characters.',
    );
  });
});
