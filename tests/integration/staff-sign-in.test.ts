/**
 * Staff only by a real sign-in with Google, on the embedded backend and on PostgreSQL 17: is_staff and
 * require_staff refuse an anonymous user holding a confirmed staff address (as updateUser({ email }) gives one where
 * "Confirm email" is off), a token that says it is anonymous, and a user whose staff address did not come from a
 * Google identity; the staff member signed in with Google is staff.
 */
import { describe, expect, it } from 'vitest';
import { DATABASES, GOOGLE_IDENTITIES, isPermissionError, useTestDatabase } from '../helpers/test-databases';

const STAFF = '00000000-0000-4000-8000-0000000005a1';
const ANONYMOUS = '00000000-0000-4000-8000-0000000005a2';
const EMAIL_ONLY = '00000000-0000-4000-8000-0000000005a3';
const CHANGED = '00000000-0000-4000-8000-0000000005a4';

describe.each(DATABASES)('staff sign-in on the $label', ({ open }) => {
  const db = useTestDatabase(
    open,
    `
      insert into public.staff_members (email) values ('owner@example.com'), ('packer@example.com'), ('keeper@example.com');
      -- The staff member, and someone else, each signed in with Google; then the other changed their address to a staff one.
      insert into auth.users (id, email, email_confirmed_at) values ('${STAFF}', 'owner@example.com', now()), ('${CHANGED}', 'someone@example.com', now());
      ${GOOGLE_IDENTITIES};
      update auth.users set email = 'Packer@Example.com' where id = '${CHANGED}';
      -- An anonymous sign-in that set the staff address and had it confirmed at once: no identity, as Supabase leaves it.
      insert into auth.users (id, email, email_confirmed_at, is_anonymous) values ('${ANONYMOUS}', 'packer@example.com', now(), true);
      -- The staff address proven by an email sign-up, not by Google.
      insert into auth.users (id, email, email_confirmed_at) values ('${EMAIL_ONLY}', 'keeper@example.com', now());
      insert into auth.identities (provider_id, user_id, identity_data, provider) values ('${EMAIL_ONLY}', '${EMAIL_ONLY}', '{"email": "keeper@example.com"}', 'email');
    `,
  );

  const isStaff = async (sub: string, claims: Record<string, unknown> = {}) => (await db.request('authenticated', { sub, ...claims }, 'select public.is_staff() as staff')).rows[0]?.staff;
  const requireStaff = (sub: string, claims: Record<string, unknown> = {}) =>
    db.request('authenticated', { sub, ...claims }, 'select public.require_staff() as email').then(
      (result) => result.rows[0]?.email,
      (error: unknown) => (isPermissionError(error) ? 'refused' : Promise.reject(error)),
    );

  it('the staff member signed in with Google is staff', async () => {
    expect(await isStaff(STAFF, { is_anonymous: false })).toBe(true);
    expect(await requireStaff(STAFF)).toBe('owner@example.com');
  });

  it('an anonymous user holding a confirmed staff address is not staff', async () => {
    expect(await isStaff(ANONYMOUS, { is_anonymous: true })).toBe(false);
    expect(await isStaff(ANONYMOUS)).toBe(false);
    expect(await requireStaff(ANONYMOUS, { is_anonymous: true })).toBe('refused');
  });

  it('a token that says it is anonymous is not staff, even for the staff member', async () => {
    expect(await isStaff(STAFF, { is_anonymous: true })).toBe(false);
    expect(await requireStaff(STAFF, { is_anonymous: true })).toBe('refused');
  });

  it('a staff address not vouched for by a Google identity is not staff', async () => {
    expect(await isStaff(EMAIL_ONLY)).toBe(false);
    expect(await requireStaff(EMAIL_ONLY)).toBe('refused');
    expect(await isStaff(CHANGED)).toBe(false);
    expect(await requireStaff(CHANGED)).toBe('refused');
  });
});
