import type { SupabaseClient } from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';
import { readMailLink, signingSecret, signMailLink } from '../../functions/_lib/mail-links';
import { createLocalOutboxEmail, readOutbox } from '../../functions/_lib/providers/local-email';
import { readServerEnv } from '../../src/config/env';
import { postFrom, type VisitorAddress } from '../helpers/post-from';
import { useBackOfficeShop } from '../helpers/shop';
import { callFunction, DATABASES, useTestDatabase } from '../helpers/test-databases';

const STAFF = 'newsletter-publisher@example.com';

describe('the newsletter on the local shop', () => {
  const t = useBackOfficeShop('newsletter', { staff: STAFF, shopper: 'newsletter-shopper@example.com' });

  // Each sign-up from its own loopback address: the shop allows 10 sign-ups a minute from one.
  let visitors = 0;
  const subscribe = async (email: string, page?: string) => {
    const visitor: VisitorAddress = `127.0.${Math.floor(++visitors / 250)}.${(visitors % 250) + 2}`;
    const answer = await postFrom(t.url, visitor, '/api/send-notification', JSON.stringify({ type: 'newsletter', data: { email, ...(page && { page }) } }));
    return { status: answer.status };
  };
  const subscription = async (email: string) =>
    (await t.service().from('newsletter_subscriptions').select('id, status, consent_at, consent_source, consent_page, unsubscribed_at').eq('email', email).single()).data as {
      id: string;
      status: string;
      consent_at: string;
      consent_source: string;
      consent_page: string | null;
      unsubscribed_at: string | null;
    };
  const secret = signingSecret(readServerEnv({ SHOP_LOCAL_SERVER: '1' }));
  /** The token in the newest confirmation email to this address. */
  async function confirmationToken(email: string): Promise<string> {
    const mail = (await readOutbox(t.outbox)).filter((m) => m.to === email && m.subject.startsWith('Please confirm')).at(-1);
    const token = mail?.text.match(/\/newsletter\/confirm#([\w.-]+)/)?.[1];
    if (!token) throw new Error(`no confirmation email to ${email}`);
    return token;
  }
  const answer = (token: string, choice: 'confirm' | 'decline') =>
    fetch(`${t.url}/api/email-confirm`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token, answer: choice }) });
  /** Signs up and confirms from the inbox, as a reader does. */
  async function subscribeAndConfirm(email: string, page?: string) {
    expect((await subscribe(email, page)).status).toBe(200);
    expect((await answer(await confirmationToken(email), 'confirm')).status).toBe(200);
  }
  async function send(client: SupabaseClient, newsletterId: string) {
    const token = (await client.auth.getSession()).data.session!.access_token;
    const response = await fetch(`${t.url}/api/admin-newsletter`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ newsletterId }),
    });
    return { status: response.status, body: (await response.json()) as { sent?: number; waiting?: number; state?: string; message?: string; error?: string } };
  }
  async function write(subject: string, body: string): Promise<string> {
    const { data, error } = await t.staff.rpc('admin_create_newsletter', { p_subject: subject, p_body: body });
    if (error) throw error;
    return (data as { id: string }).id;
  }
  /** Keeps everyone but these out of the next newsletter (other tests' subscribers). */
  async function onlySubscribed(emails: string[]) {
    const list = emails.map((e) => `'${e.replace(/'/g, "''")}'`).join(', ');
    await t.shop.backend!.db.exec(`update public.newsletter_subscriptions set unsubscribed_at = now() where unsubscribed_at is null and email not in (${list})`);
  }
  const mails = async (subject: string) => (await readOutbox(t.outbox)).filter((m) => m.subject === subject);

  it('a sign-up is confirmed from the inbox: then, and only then, the consent records when and on which page', async () => {
    expect((await subscribe('consent@example.com', '/blog')).status).toBe(200);
    expect(await subscription('consent@example.com')).toMatchObject({ status: 'pending', consent_at: null });
    const token = await confirmationToken('consent@example.com');
    const confirmed = await answer(token, 'confirm');
    expect(await confirmed.json()).toEqual({ state: 'confirmed', message: "You're subscribed! Thank you for confirming: our newsletter will come to this address." });
    const row = await subscription('consent@example.com');
    expect(row).toMatchObject({ status: 'confirmed', consent_source: 'Website sign-up form, confirmed by email', consent_page: '/blog', unsubscribed_at: null });
    expect(Date.now() - Date.parse(row.consent_at)).toBeLessThan(60_000);
    // The publisher hears of it once it is confirmed.
    expect((await readOutbox(t.outbox)).filter((m) => m.subject === 'New newsletter subscriber: consent@example.com')).toHaveLength(1);
    expect(await (await answer(token, 'confirm')).json()).toMatchObject({ state: 'already' });
    // A page that is not a path of this site is not recorded.
    await subscribeAndConfirm('consent-elsewhere@example.com', 'https://elsewhere.example/x');
    expect((await subscription('consent-elsewhere@example.com')).consent_page).toBeNull();
    // Signing up a confirmed address again answers as any sign-up does; its owner is told in their inbox.
    expect((await subscribe('CONSENT@example.com', '/blog')).status).toBe(200);
    expect((await readOutbox(t.outbox)).filter((m) => m.to.toLowerCase() === 'consent@example.com' && m.subject.startsWith("You're already subscribed"))).toHaveLength(1);
  });

  it('"this wasn\'t me" keeps a pending sign-up from ever counting; a forged, altered or expired confirmation link confirms nobody', async () => {
    expect((await subscribe('not-me@example.com')).status).toBe(200);
    const token = await confirmationToken('not-me@example.com');
    const { id: subscriptionId } = await subscription('not-me@example.com');
    expect(await readMailLink(secret, token)).toMatchObject({ status: 'ok', link: { kind: 'newsletter-confirm', subscriptionId } });
    // One character of the signature changed (not the last, whose low bits base64 may ignore), to one it is not.
    const at = token.length - 5;
    const altered = `${token.slice(0, at)}${token[at] === 'A' ? 'B' : 'A'}${token.slice(at + 1)}`;
    for (const bad of [await signMailLink('not-the-secret', { kind: 'newsletter-confirm', subscriptionId }), altered, token.replace(/^nc/, 'ac'), '', 'x']) {
      const response = await answer(bad, 'confirm');
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: string }).error).toMatch(/This confirmation link is not valid|The link is missing/);
    }
    const old = await signMailLink(secret, { kind: 'newsletter-confirm', subscriptionId }, Date.now() - 8 * 86_400_000);
    expect(await (await answer(old, 'confirm')).json()).toEqual({ error: expect.stringMatching(/^This link has expired/) });
    // An unsubscribe link is not a confirmation.
    expect((await answer(await signMailLink(secret, { kind: 'newsletter-unsubscribe', subscriptionId }), 'confirm')).status).toBe(400);
    expect((await subscription('not-me@example.com')).status).toBe('pending');
    expect(await (await answer(token, 'decline')).json()).toMatchObject({ state: 'declined' });
    // Kept as an address that said no, with no consent: a sign-up of it the same day sends nothing more.
    expect(await subscription('not-me@example.com')).toMatchObject({ status: 'unsubscribed', consent_at: null });
    const before = (await readOutbox(t.outbox)).length;
    expect((await subscribe('not-me@example.com')).status).toBe(200);
    expect((await readOutbox(t.outbox)).length).toBe(before);
  });

  it('only the newest confirmation email counts: a link from an earlier email, or from before an unsubscribe, confirms nothing', async () => {
    const email = 'old-link@example.com';
    await subscribeAndConfirm(email);
    const { id: subscriptionId } = await subscription(email);
    const earlier = await signMailLink(secret, { kind: 'newsletter-confirm', subscriptionId }, Date.now() - 60_000);
    const unsubscribe = await signMailLink(secret, { kind: 'newsletter-unsubscribe', subscriptionId });
    expect((await fetch(`${t.url}/api/newsletter-unsubscribe?token=${encodeURIComponent(unsubscribe)}`, { method: 'POST', body: 'List-Unsubscribe=One-Click' })).status).toBe(200);
    expect(await (await answer(earlier, 'confirm')).json()).toEqual({
      state: 'stale',
      message: 'This link is from an earlier email. Please use the link in the newest email we sent you, or sign up again.',
    });
    // A stranger signs the address up: the earlier link still counts for nothing; the new email's link does.
    expect((await subscribe(email)).status).toBe(200);
    expect(await (await answer(earlier, 'confirm')).json()).toMatchObject({ state: 'stale' });
    expect((await subscription(email)).status).toBe('unsubscribed');
    expect(await (await answer(await confirmationToken(email), 'confirm')).json()).toMatchObject({ state: 'confirmed' });
  });

  it('sends to every subscriber once, each email with its own one-click unsubscribe; the unsubscribed get no more', async () => {
    const [ann, ben] = ['ann-news@example.com', 'ben-news@example.com'];
    for (const email of [ann, ben]) await subscribeAndConfirm(email, '/blog');
    // Cara signed up but never confirmed: she gets nothing.
    expect((await subscribe('cara-news@example.com', '/blog')).status).toBe(200);
    await onlySubscribed([ann, ben, 'cara-news@example.com']);

    const first = await write('Spring news', 'Hello **friends**!\n\n<script>alert(1)</script>\n\n[Our book](https://example.com/book) and [bad](javascript:alert(1))');
    expect((await send(t.staff, first)).body).toMatchObject({ sent: 2, waiting: 0, state: 'done', message: 'It has gone to everyone it was for.' });
    const sent = await mails('Spring news');
    expect(sent.map((m) => m.to).sort()).toEqual([ann, ben]);
    for (const mail of sent) {
      const id = (await subscription(mail.to)).id;
      const token = await signMailLink(secret, { kind: 'newsletter-unsubscribe', subscriptionId: id });
      expect(mail.headers).toEqual({ 'List-Unsubscribe': `<${t.url}/api/newsletter-unsubscribe?token=${encodeURIComponent(token)}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });
      expect(mail.html).toContain(`href="${t.url}/newsletter/unsubscribe#${token}"`);
      expect(mail.text).toContain(`${t.url}/newsletter/unsubscribe#${token}`);
      // Safe Markdown: the script is text, the javascript: link is not a link.
      expect(mail.html).toContain('<strong>friends</strong>');
      expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
      expect(mail.html).not.toContain('<script');
      expect(mail.html).not.toContain('javascript:');
      expect(mail.html).toContain('href="https://example.com/book"');
    }
    // Sending again sends nobody anything.
    expect((await send(t.staff, first)).body).toMatchObject({ sent: 0, state: 'done' });
    expect(await mails('Spring news')).toHaveLength(2);

    // Ann's mail program unsubscribes her from the header, as RFC 8058 says: a POST with List-Unsubscribe=One-Click.
    const oneClick = sent.find((m) => m.to === ann)!.headers!['List-Unsubscribe']!.slice(1, -1);
    const response = await fetch(oneClick, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { message: string }).message).toBe('You have been unsubscribed. You will get no more newsletters from us.');
    expect((await subscription(ann)).unsubscribed_at).not.toBeNull();
    // Again: still fine, still unsubscribed.
    expect((await fetch(oneClick, { method: 'POST', body: 'List-Unsubscribe=One-Click' })).status).toBe(200);

    const second = await write('Summer news', 'Only for those still with us.');
    expect((await send(t.staff, second)).body).toMatchObject({ sent: 1, state: 'done' });
    expect((await mails('Summer news')).map((m) => m.to)).toEqual([ben]);

    const list = (await t.staff.rpc('admin_list_newsletters')).data as Array<{ id: string; recipients: number; sent: number; finished_at: string | null }>;
    expect(list.find((n) => n.id === first)).toMatchObject({ recipients: 2, sent: 2, skipped: 0, unknown: 0, waiting: 0, finished_at: expect.any(String) });
    expect(list.find((n) => n.id === second)).toMatchObject({ recipients: 1, sent: 1 });

    // Anyone signing her address up again only sends her a confirmation: she stays unsubscribed until she confirms.
    expect((await subscribe(ann, '/blog/why-faith-based-books-matter')).status).toBe(200);
    expect(await subscription(ann)).toMatchObject({ status: 'unsubscribed' });
    const third = await write('Autumn news', 'Still only for those with us.');
    expect((await send(t.staff, third)).body).toMatchObject({ sent: 1, state: 'done' });
    expect((await mails('Autumn news')).map((m) => m.to)).toEqual([ben]);
    // Her own confirmation is a new consent: she is back on the list.
    expect((await answer(await confirmationToken(ann), 'confirm')).status).toBe(200);
    expect(await subscription(ann)).toMatchObject({ status: 'confirmed', unsubscribed_at: null, consent_page: '/blog/why-faith-based-books-matter' });
  });

  it('a forged or altered unsubscribe token is refused, and unsubscribes nobody', async () => {
    await subscribeAndConfirm('forged@example.com');
    const { id } = await subscription('forged@example.com');
    const forged = await signMailLink('not-the-secret', { kind: 'newsletter-unsubscribe', subscriptionId: id });
    expect(await readMailLink(secret, forged)).toEqual({ status: 'invalid' });
    for (const token of [forged, id, `${id}.`, '']) {
      const response = await fetch(`${t.url}/api/newsletter-unsubscribe?token=${encodeURIComponent(token)}`, { method: 'POST', body: 'List-Unsubscribe=One-Click' });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: string }).error).toMatch(/This unsubscribe link is not valid/);
    }
    expect((await subscription('forged@example.com')).unsubscribed_at).toBeNull();
  });

  it('sends in batches of at most 100, and a send that stopped is resumed without sending anyone twice', async () => {
    const emails = Array.from({ length: 205 }, (_, i) => `bulk-${String(i).padStart(3, '0')}@example.com`);
    const inserted = await t
      .service()
      .from('newsletter_subscriptions')
      .insert(emails.map((email) => ({ email, consent_source: 'Test import' })));
    if (inserted.error) throw inserted.error;
    await onlySubscribed(emails);
    const id = await write('Bulk news', 'To many.');

    // The first batch was claimed and sent, then the sender stopped before recording it (its answer was lost).
    const claimed = (await t.service().rpc('newsletter_claim_batch', { p_newsletter_id: id, p_size: 100 })).data as { batch: number; recipients: Array<{ email: string }> };
    expect(claimed.recipients).toHaveLength(100);
    const provider = createLocalOutboxEmail({ file: t.outbox, log: () => {} });
    await provider.sendBatch(
      claimed.recipients.map((r) => ({ to: r.email, subject: 'Bulk news', text: 'To many.' })),
      { idempotencyKey: `newsletter-${id}-batch-${claimed.batch}` },
    );
    // While it could still be in flight, a resumed send leaves it alone and sends the rest.
    const resumed = await send(t.staff, id);
    expect(resumed.body).toMatchObject({ sent: 105, state: 'busy', waiting: 100 });
    // Two minutes on, the claimed batch is taken again with the same key: the provider sends nothing twice.
    await t.shop.backend!.db.exec(`update public.newsletter_deliveries set claimed_at = now() - interval '3 minutes' where newsletter_id = '${id}' and status = 'claimed'`);
    expect((await send(t.staff, id)).body).toMatchObject({ sent: 100, waiting: 0, state: 'done' });
    const bulk = await mails('Bulk news');
    expect(bulk).toHaveLength(205);
    expect(new Set(bulk.map((m) => m.to)).size).toBe(205);
    const batchSizes = Object.values(Object.groupBy(bulk, (m) => m.batchKey ?? '')).map((group) => group!.length);
    expect(batchSizes.sort((a, b) => a - b)).toEqual([5, 100, 100]);
  });

  it('only staff write or send a newsletter; a signed-in shopper reads none', async () => {
    expect((await t.shopper.rpc('admin_create_newsletter', { p_subject: 'Mine', p_body: 'x' })).error?.code).toBe('42501');
    expect((await t.shopper.rpc('admin_list_newsletters')).error?.code).toBe('42501');
    expect((await t.shopper.from('newsletters').select('subject')).data ?? []).toEqual([]);
    expect((await t.shopper.from('newsletter_deliveries').select('email')).data ?? []).toEqual([]);
    expect((await send(t.shopper, '00000000-0000-4000-8000-000000000000')).status).toBe(403);
    expect((await send(t.staff, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });
});

describe.each(DATABASES)('newsletter batches, on the $label', ({ open }) => {
  const NEWSLETTER = '00000000-0000-4000-8000-00000000bb01';
  const db = useTestDatabase(
    open,
    `
      insert into public.newsletter_subscriptions (email) select 'reader' || g || '@example.com' from generate_series(1, 250) g;
      insert into public.newsletters (id, subject, body_markdown, created_by) values ('${NEWSLETTER}', 'News', 'Hello', 'publisher@example.com');
      insert into public.newsletter_deliveries (newsletter_id, email, subscription_id) select '${NEWSLETTER}', lower(email), id from public.newsletter_subscriptions;
      update public.newsletter_subscriptions set unsubscribed_at = now() where email = 'reader7@example.com';`,
  );

  const call = <T>(fn: string, args: unknown[]) => callFunction<T>(db, fn, args);
  type Claim = { batch: number | null; recipients?: Array<{ email: string }>; state?: string };
  /** How many of a newsletter's deliveries stand at each status. */
  const deliveriesByStatus = async (newsletterId: string) =>
    (await db.admin.query<{ status: string; n: number }>(`select status, count(*)::int as n from public.newsletter_deliveries where newsletter_id = '${newsletterId}' group by status order by status`))
      .rows;

  it('senders at once claim disjoint batches, skip the unsubscribed, take back a stale batch with its number, and finish', async () => {
    const claims = await Promise.all(Array.from({ length: 4 }, () => call<Claim>('newsletter_claim_batch', [NEWSLETTER, 100])));
    const batches = claims.filter((c) => c.batch !== null);
    expect(batches).toHaveLength(3);
    const claimedEmails = batches.flatMap((c) => c.recipients!.map((r) => r.email));
    expect(claimedEmails).toHaveLength(249);
    expect(new Set(claimedEmails).size).toBe(249);
    expect(claimedEmails).not.toContain('reader7@example.com');
    expect(claims.find((c) => c.batch === null)).toEqual({ batch: null, state: 'busy' });

    const [first, ...rest] = batches as Array<{ batch: number }>;
    for (const c of rest) await call('newsletter_batch_sent', [NEWSLETTER, c.batch]);
    // The first batch's sender stopped; two minutes on it is claimed again, with the same number (the same key).
    await db.admin.exec(`update public.newsletter_deliveries set claimed_at = now() - interval '3 minutes' where newsletter_id = '${NEWSLETTER}' and batch = ${first!.batch}`);
    const again = await call<Claim>('newsletter_claim_batch', [NEWSLETTER, 100]);
    expect(again.batch).toBe(first!.batch);
    expect(again.recipients).toHaveLength(batches[0]!.recipients!.length);
    expect(await call<number>('newsletter_batch_sent', [NEWSLETTER, first!.batch])).toBe(0);
    expect(await call<Claim>('newsletter_claim_batch', [NEWSLETTER, 100])).toEqual({ batch: null, state: 'done' });
    expect(await deliveriesByStatus(NEWSLETTER)).toEqual([
      { status: 'sent', n: 249 },
      { status: 'skipped', n: 1 },
    ]);
  });

  it('a batch whose answer never came is not sent again once its first claim is a day old: its readers are set aside as unknown', async () => {
    const LATER = '00000000-0000-4000-8000-00000000bb02';
    await db.admin.exec(`
      insert into public.newsletters (id, subject, body_markdown, created_by) values ('${LATER}', 'Later news', 'Hello', 'publisher@example.com');
      insert into public.newsletter_deliveries (newsletter_id, email, subscription_id)
        select '${LATER}', lower(email), id from public.newsletter_subscriptions where email in ('reader1@example.com', 'reader2@example.com', 'reader3@example.com');`);
    const lost = await call<Claim>('newsletter_claim_batch', [LATER, 2]);
    expect(lost.recipients).toHaveLength(2);
    // Resumed within the day, the batch is taken back with its number: the provider's key makes the resend safe.
    await db.admin.exec(`update public.newsletter_deliveries set claimed_at = now() - interval '3 minutes' where newsletter_id = '${LATER}' and batch = ${lost.batch}`);
    expect((await call<Claim>('newsletter_claim_batch', [LATER, 2])).batch).toBe(lost.batch);
    // A day after its first claim the key may be forgotten: a resend could be a second copy, so it is never made.
    await db.admin.exec(
      `update public.newsletter_deliveries set claimed_at = now() - interval '23 hours 30 minutes', first_claimed_at = now() - interval '24 hours' where newsletter_id = '${LATER}' and batch = ${lost.batch}`,
    );
    const next = await call<Claim>('newsletter_claim_batch', [LATER, 2]);
    expect(next.batch).not.toBe(lost.batch);
    expect(next.recipients!.map((r) => r.email)).toEqual(['reader3@example.com']);
    await call('newsletter_batch_sent', [LATER, next.batch]);
    expect(await call<Claim>('newsletter_claim_batch', [LATER, 2])).toEqual({ batch: null, state: 'done' });
    expect(await deliveriesByStatus(LATER)).toEqual([
      { status: 'sent', n: 1 },
      { status: 'unknown', n: 2 },
    ]);
  });

  it('unsubscribing is once and records an opt-out; a sign-up of that address asks for a confirmation and changes nothing else', async () => {
    const { rows } = await db.admin.query<{ id: string }>(`select id from public.newsletter_subscriptions where email = 'reader9@example.com'`);
    const id = rows[0]!.id;
    expect(await call('newsletter_unsubscribe', [id])).toBe('unsubscribed');
    expect(await call('newsletter_unsubscribe', [id])).toBe('already');
    expect(await call('newsletter_unsubscribe', ['00000000-0000-4000-8000-000000000000'])).toBe('unknown');
    expect((await db.admin.query(`select via from public.marketing_opt_outs where email = 'reader9@example.com'`)).rows).toEqual([{ via: 'newsletter' }]);
    expect(await call('newsletter_request', ['Reader9@Example.com', '/blog'])).toMatchObject({ action: 'send', id });
    expect(await call('newsletter_request', ['reader9@example.com', '/blog'])).toEqual({ action: 'wait', id });
    const status = async () => (await db.admin.query<{ status: string }>(`select status from public.newsletter_subscriptions where id = '${id}'`)).rows[0]?.status;
    expect(await status()).toBe('unsubscribed');
    expect(await call('newsletter_decline', [id])).toBe('declined');
    expect(await status()).toBe('unsubscribed');
    // The declined email's link is spent; the reader signs up again and confirms from the new email.
    expect(await call('newsletter_confirm', [id, 'Website sign-up form, confirmed by email', new Date().toISOString()])).toBe('stale');
    expect(await call('newsletter_request', ['reader9@example.com', '/blog'])).toMatchObject({ action: 'send', id });
    expect(await call('newsletter_confirm', [id, 'Website sign-up form, confirmed by email', new Date(Date.now() + 1000).toISOString()])).toBe('confirmed');
    expect(await status()).toBe('confirmed');
    // A confirmed address signed up again: its owner is told once a day at most, and nothing else changes.
    expect(await call('newsletter_request', ['reader9@example.com', '/blog'])).toEqual({ action: 'notice', id, sent_at: expect.any(String) });
    expect(await call('newsletter_request', ['reader9@example.com', '/blog'])).toEqual({ action: 'wait', id });
    expect(await status()).toBe('confirmed');
  });

  it('a pending sign-up holds no consent, and is deleted once its 7 days are over', async () => {
    const sent = await call<{ action: string; id: string }>('newsletter_request', ['pending-reader@example.com', '/book']);
    expect(sent.action).toBe('send');
    const row = async () => (await db.admin.query(`select status, consent_at, consent_source from public.newsletter_subscriptions where id = '${sent.id}'`)).rows[0];
    expect(await row()).toEqual({ status: 'pending', consent_at: null, consent_source: null });
    // A consent without its source, or a pending row that asked nobody, is refused by the table itself.
    await expect(db.admin.exec(`update public.newsletter_subscriptions set consent_at = now() where id = '${sent.id}'`)).rejects.toThrow(/consent_whole/);
    await expect(db.admin.exec(`update public.newsletter_subscriptions set confirmation_sent_at = null where id = '${sent.id}'`)).rejects.toThrow(/pending_asked/);
    await db.admin.exec(`update public.newsletter_subscriptions set confirmation_sent_at = now() - interval '7 days 1 minute' where id = '${sent.id}'`);
    await call('newsletter_request', ['someone-else@example.com', '/book']);
    expect(await row()).toBeUndefined();
    // Nobody pending is ever drawn into a newsletter.
    expect(await call('newsletter_confirm', [sent.id, 'x', new Date().toISOString()])).toBe('unknown');
  });
});
