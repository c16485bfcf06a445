/**
 * Gift orders and checkout reminders in the database, on the embedded backend and on PostgreSQL 17: the gift
 * message's rule is checked again by the database (length, lines, control characters, nothing without a gift),
 * and an unpaid order's one reminder is claimed once, only with the shopper's consent, never for a paid order,
 * nor after the shopper has placed a newer order, or when their address had a reminder lately, and only by the
 * service role.
 */
import { describe, expect, it } from 'vitest';
import { DATABASES, isPermissionError, useTestDatabase } from '../helpers/test-databases';

const ORDER = (n: number) => `00000000-0000-4000-8000-0000000007${String(n).padStart(2, '0')}`;
const SHOPPER = '00000000-0000-4000-8000-0000000007b0';

const orderRow = (n: number, email: string, extra: { payment?: string; consent?: boolean; createdAgo?: string } = {}) =>
  `('${ORDER(n)}', '${email}', 'pending', '${extra.payment ?? 'unpaid'}', 22, 15, 37, '{}', '{}', ${extra.consent === false ? 'null' : 'now()'}, now() - interval '${extra.createdAgo ?? '1 hour'}')`;

const FIXTURES = `
  insert into auth.users (id, email, email_confirmed_at) values ('${SHOPPER}', 'owner@example.com', now());
  insert into public.orders (id, customer_email, status, payment_status, subtotal_amount, shipping_amount, total_amount, shipping_address, shipping_method, reminder_consent_at, created_at) values
    ${orderRow(1, 'gift@example.com', { consent: false })},
    ${orderRow(2, 'consent@example.com')},
    ${orderRow(3, 'noconsent@example.com', { consent: false })},
    ${orderRow(4, 'paid@example.com', { payment: 'paid' })},
    ${orderRow(5, 'came-back@example.com', { createdAgo: '2 hours' })},
    ${orderRow(6, 'Came-Back@example.com', { consent: false })},
    ${orderRow(7, 'twice@example.com', { createdAgo: '3 days' })},
    ${orderRow(8, 'twice@example.com', { payment: 'paid', createdAgo: '2 days' })},
    ${orderRow(9, 'Twice@example.com', { createdAgo: '1 hour' })};
`;

describe.each(DATABASES)('gift orders and checkout reminders on the $label', ({ open }) => {
  const db = useTestDatabase(open, FIXTURES);
  const setGift = (fields: string) => db.admin.exec(`update public.orders set ${fields} where id = '${ORDER(1)}'`);
  const claim = async (n: number, withinDays = 30) =>
    (await db.request('service_role', {}, `select public.claim_checkout_reminder('${ORDER(n)}', ${withinDays}) as token`, { commit: true })).rows[0]?.token;

  it('keeps a gift message of up to 200 characters on a few lines, and refuses a longer one, control characters and a message without a gift', async () => {
    await setGift(`is_gift = true, gift_message = 'Happy First Communion, Lucy!' || E'\\n' || 'Love, Nonna', gift_hide_prices = true`);
    await setGift(`gift_message = repeat('é', 200)`);
    // The functions count characters as a person does; the table allows the code points of 200 of them.
    await setGift(`gift_message = repeat('🎁', 200)`);
    await setGift(`gift_message = repeat('👨‍👩‍👧‍👦', 200)`);
    const refused = [
      `gift_message = repeat('x', 2001)`,
      `gift_message = 'Tab' || chr(9) || 'here'`,
      `gift_message = 'Bell' || chr(7)`,
      `gift_message = 'Line' || chr(8232) || 'separator'`,
      `gift_message = 'Right-to-left ' || chr(8238) || 'override'`,
      `gift_message = ' padded '`,
      `gift_message = ''`,
      `gift_message = repeat('line' || E'\\n', 6) || 'seventh'`,
      `is_gift = false`,
    ];
    for (const fields of refused) await expect(setGift(fields), fields).rejects.toThrow(/violates check constraint/);
    await setGift(`is_gift = false, gift_message = null, gift_hide_prices = false`);
    await expect(setGift(`gift_hide_prices = true`)).rejects.toThrow(/orders_gift_details_need_gift/);
  });

  it('claims the reminder once, only with consent, only while unpaid, and not after a newer order with the same email', async () => {
    const token = await claim(2);
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(await claim(2)).toBeNull();
    const row = (await db.admin.query<{ reminder_sent_at: string | null; recovery_token: string }>(`select reminder_sent_at, recovery_token from public.orders where id = '${ORDER(2)}'`)).rows[0]!;
    expect(row.reminder_sent_at).not.toBeNull();
    expect(row.recovery_token).toBe(token);
    expect(await claim(3)).toBeNull();
    expect(await claim(4)).toBeNull();
    expect(await claim(5)).toBeNull();
    // A reminder cannot be marked sent without consent, whoever writes it.
    await expect(db.admin.exec(`update public.orders set reminder_sent_at = now() where id = '${ORDER(3)}'`)).rejects.toThrow(/orders_reminder_needs_consent/);
  });

  it('sends one reminder per address within the quiet period, whichever order it was for', async () => {
    // Order 7 was left on Monday and reminded; order 8 was paid on Tuesday; order 9 is left today.
    await db.admin.exec(`update public.orders set reminder_sent_at = now() - interval '3 days', recovery_token = repeat('a', 64) where id = '${ORDER(7)}'`);
    expect(await claim(9)).toBeNull();
    // Past the quiet period the address may hear from the shop again.
    expect(await claim(9, 2)).toMatch(/^[0-9a-f]{64}$/);
    await expect(claim(9, -1)).rejects.toThrow(/p_once_within_days must be zero or more/);
  });

  it('only the service role may claim a reminder', async () => {
    for (const [role, claims] of [
      ['anon', {}],
      ['authenticated', { sub: SHOPPER }],
    ] as const) {
      await expect(db.request(role, claims, `select public.claim_checkout_reminder('${ORDER(2)}', 30)`)).rejects.toSatisfy(isPermissionError);
    }
  });
});
