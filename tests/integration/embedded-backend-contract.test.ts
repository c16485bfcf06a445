/**
 * The embedded backend's contract, driven through supabase-js as the product drives it: every query shape
 * the product uses, and Supabase's error shapes and statuses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestShop, type TestShop } from '../helpers/shop';
import { LOCAL_ANON_KEY } from '../../local/backend/keys';

let t: TestShop;
beforeAll(async () => {
  t = await startTestShop();
  const { error } = await t
    .service()
    .from('products')
    .insert(
      [
        { id: 'rosary-kit', title: 'Rosary Craft Kit', price: 15.5, category: 'Crafts', stock: 3, weight: 120, dimensions: { length: 10, width: 5, height: 2 } },
        { id: 'saints-cards', title: 'Saints Cards', price: 9.95, category: "Children's Books", stock: 0, weight: 80 },
      ],
      { defaultToNull: false },
    );
  expect(error).toBeNull();
});
afterAll(() => t.close());

describe('product reads', () => {
  it('selects all rows with numbers as JSON numbers and jsonb as objects', async () => {
    const { data, error } = await t.anon().from('products').select('*');
    expect(error).toBeNull();
    // The two book files' products (synced from content/books) and the two inserted above.
    expect(data!.map((p) => p.id).sort()).toEqual(['book-10-reasons', 'mass-is-awesome', 'rosary-kit', 'saints-cards']);
    const book = data!.find((p) => p.id === 'book-10-reasons');
    expect(book).toMatchObject({ price: 22, stock: expect.any(Number), weight: 300, featured: true, dimensions: { length: 21.6, width: 21.6, height: 0.6 } });
  });

  it('selects a column list with eq, neq, in, order and limit', async () => {
    const { data } = await t.anon().from('products').select('id, price').eq('category', "Children's Books").neq('id', 'book-10-reasons').order('id').limit(3);
    expect(data).toEqual([
      { id: 'mass-is-awesome', price: 24 },
      { id: 'saints-cards', price: 9.95 },
    ]);
    const { data: some } = await t.anon().from('products').select('id').in('id', ['rosary-kit', 'book-10-reasons']).order('id', { ascending: false });
    expect(some).toEqual([{ id: 'rosary-kit' }, { id: 'book-10-reasons' }]);
    const { data: cheapest } = await t.anon().from('products').select('id').order('price').limit(1);
    expect(cheapest).toEqual([{ id: 'saints-cards' }]);
  });

  it('reads a single row, and answers PGRST116 / 406 when there is none', async () => {
    const { data } = await t.anon().from('products').select('*').eq('id', 'book-10-reasons').single();
    expect(data?.title).toBe('10 Reasons Why Being Catholic is Awesome!');
    const missing = await t.anon().from('products').select('*').eq('id', 'no-such-book').single();
    expect(missing.status).toBe(406);
    expect(missing.error?.code).toBe('PGRST116');
  });

  it('reads maybe-single: null for no row, the row for one', async () => {
    expect((await t.anon().from('products').select('id').eq('id', 'nope').maybeSingle()).data).toBeNull();
    expect((await t.anon().from('products').select('id').eq('id', 'rosary-kit').maybeSingle()).data).toEqual({ id: 'rosary-kit' });
  });

  it('counts exactly when asked', async () => {
    const { count } = await t.anon().from('products').select('id', { count: 'exact' });
    expect(count).toBe(4);
  });
});

describe('writes and their errors', () => {
  it('inserts with return=minimal and gives 23505 / 409 on a duplicate email in another case', async () => {
    const first = await t.service().from('newsletter_subscriptions').insert({ email: 'parent@example.com' });
    expect(first.error).toBeNull();
    expect(first.status).toBe(201);
    const again = await t.service().from('newsletter_subscriptions').insert({ email: 'PARENT@Example.com' });
    expect(again.status).toBe(409);
    expect(again.error?.code).toBe('23505');
  });

  it('refuses an insert the role has no grant for with 42501 / 401', async () => {
    const { error, status } = await t.anon().from('newsletter_subscriptions').insert({ email: 'bot@example.com' });
    expect(status).toBe(401);
    expect(error?.code).toBe('42501');
  });

  it('refuses anon reads of the newsletter with 42501 / 401', async () => {
    const { error, status } = await t.anon().from('newsletter_subscriptions').select('email');
    expect(status).toBe(401);
    expect(error?.code).toBe('42501');
  });

  it('rejects a row that breaks a constraint with 23514 / 400', async () => {
    const { error, status } = await t.service().from('contact_submissions').insert({ name: '', email: 'not-an-email', subject: 'x', message: 'y' });
    expect(status).toBe(400);
    expect(error?.code).toBe('23514');
  });

  it('updates with filters as the service role and returns the row', async () => {
    const { data, error } = await t.service().from('products').update({ stock: 5 }).eq('id', 'rosary-kit').select('id, stock').single();
    expect(error).toBeNull();
    expect(data).toEqual({ id: 'rosary-kit', stock: 5 });
  });

  it('inserts many rows at once as the service role', async () => {
    const { data, error } = await t
      .service()
      .from('payment_events')
      .insert([
        { id: 'evt_1', type: 'a' },
        { id: 'evt_2', type: 'b' },
      ])
      .select('id');
    expect(error).toBeNull();
    expect(data).toHaveLength(2);
  });

  it('calls a function by rpc as the service role, and refuses it to anon', async () => {
    const denied = await t.anon().rpc('cancel_unpaid_order', { p_order_id: '00000000-0000-0000-0000-000000000000' });
    expect(denied.status).toBe(401);
    expect(denied.error?.code).toBe('42501');
    const allowed = await t.service().rpc('cancel_unpaid_order', { p_order_id: '00000000-0000-0000-0000-000000000000' });
    expect(allowed.error).toBeNull();
    expect(allowed.data).toBe('unchanged');
  });
});

describe('bad requests get clear errors', () => {
  it('an unknown table: 404 PGRST205', async () => {
    const { error, status } = await t.anon().from('secrets').select('*');
    expect(status).toBe(404);
    expect(error?.code).toBe('PGRST205');
  });

  it('an unknown column: 400 42703', async () => {
    const { error, status } = await t.anon().from('products').select('id, password');
    expect(status).toBe(400);
    expect(error?.code).toBe('42703');
  });

  it('a malformed filter value: 400', async () => {
    const { error, status } = await t.anon().from('products').select('id').eq('stock', 'lots');
    expect(status).toBe(400);
    expect(error?.code).toBe('22P02');
  });

  it('an unsupported operator or embedded resource names what is not supported', async () => {
    const fts = await t.anon().from('products').select('id').textSearch('title', 'rosary');
    expect(fts.status).toBe(400);
    expect(fts.error?.message).toMatch(/not supported by the embedded backend/);
    const embed = await t.anon().from('orders').select('id, order_items(*)');
    expect(embed.error?.message).toMatch(/not supported by the embedded backend/);
  });

  it('an is. value or operator that names an Object.prototype property is an unknown value, not a lookup', async () => {
    for (const filter of ['is.constructor', 'is.__proto__', 'is.toString', 'constructor.1', 'hasOwnProperty.1', '__proto__.1']) {
      const response = await fetch(`${t.url}/rest/v1/products?select=id&stock=${filter}`, { headers: { apikey: LOCAL_ANON_KEY } });
      expect(response.status, filter).toBe(400);
      const body = await response.json();
      expect(body.code, filter).toBe('PGRST100');
      expect(body.message, filter).not.toMatch(/native code|function/);
    }
  });

  it('a tampered token: 401', async () => {
    const response = await fetch(`${t.url}/rest/v1/products`, { headers: { apikey: 'x', authorization: 'Bearer not.a.jwt' } });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code: 'PGRST301' });
  });

  it('identifiers from the request never reach SQL unchecked', async () => {
    const { status } = await t
      .anon()
      .from('products')
      .select('id')
      .order('id; drop table products' as 'id');
    expect(status).toBe(400);
    expect((await t.anon().from('products').select('id')).data?.length).toBe(4);
  });
});

describe('auth', () => {
  it('signs in with PKCE through the local page, reads the user, refreshes with rotation and signs out', async () => {
    const client = await t.signIn('Ada@Example.com', 'Ada');
    const { data: user } = await client.auth.getUser();
    expect(user.user?.email).toBe('ada@example.com');
    expect(user.user?.user_metadata.full_name).toBe('Ada');

    const before = (await client.auth.getSession()).data.session!;
    const refreshed = await client.auth.refreshSession();
    expect(refreshed.error).toBeNull();
    expect(refreshed.data.session?.refresh_token).not.toBe(before.refresh_token);

    const token = refreshed.data.session!.access_token;
    expect((await fetch(`${t.url}/auth/v1/user`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    expect((await client.auth.signOut()).error).toBeNull();
    const afterLogout = await fetch(`${t.url}/auth/v1/user`, { headers: { authorization: `Bearer ${token}` } });
    expect(afterLogout.status).toBe(403);
  });

  it('a used refresh token presented again ends its session: the current access and refresh tokens stop working', async () => {
    const client = await t.signIn('reuse@example.com');
    const first = (await client.auth.getSession()).data.session!;
    const current = (await client.auth.refreshSession()).data.session!;
    const refreshWith = (refresh_token: string) =>
      fetch(`${t.url}/auth/v1/token?grant_type=refresh_token`, { method: 'POST', headers: { 'content-type': 'application/json', apikey: LOCAL_ANON_KEY }, body: JSON.stringify({ refresh_token }) });

    const replay = await refreshWith(first.refresh_token);
    expect(replay.status).toBe(400);
    expect(await replay.json()).toMatchObject({ error_code: 'refresh_token_already_used' });

    const user = await fetch(`${t.url}/auth/v1/user`, { headers: { authorization: `Bearer ${current.access_token}` } });
    expect(user.status).toBe(403);
    expect(await user.json()).toMatchObject({ error_code: 'session_not_found' });
    expect((await refreshWith(current.refresh_token)).status).toBe(400);
    // Another sign-in of the same person is a separate session and is unaffected.
    const other = await t.signIn('reuse@example.com');
    expect((await other.auth.getUser()).error).toBeNull();
  });

  it('shows a page that says it stands in for Google, and only redirects to the site itself', async () => {
    const challenge = 'a'.repeat(43);
    const page = await fetch(`${t.url}/auth/v1/authorize?provider=google&redirect_to=${encodeURIComponent(`${t.url}/auth/callback`)}&code_challenge=${challenge}&code_challenge_method=s256`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('stands in for Google');
    const evil = await fetch(`${t.url}/auth/v1/authorize?provider=google&redirect_to=${encodeURIComponent('https://evil.example/steal')}&code_challenge=${challenge}`);
    expect(evil.status).toBe(400);
  });

  it('a code works once, and only with its verifier', async () => {
    const bad = await fetch(`${t.url}/auth/v1/token?grant_type=pkce`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ auth_code: 'made-up', code_verifier: 'x'.repeat(43) }),
    });
    expect(bad.status).toBe(404);
    expect(await bad.json()).toMatchObject({ error_code: 'flow_state_not_found' });
  });

  it('answers an unsupported auth call with a clear error', async () => {
    const response = await fetch(`${t.url}/auth/v1/signup`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(404);
    expect((await response.json()).msg).toMatch(/not supported by the embedded backend/);
  });
});
