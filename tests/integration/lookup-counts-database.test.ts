/**
 * The per-visitor look-up counter, on both databases: each visitor and kind has its own window of a minute,
 * counted across every caller (so across function instances), a window that has ended starts again at one, and
 * anything that is not a visitor hash or a known kind is refused with 22023.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DATABASES, useTestDatabase } from '../helpers/test-databases';

describe.each(DATABASES)('look-up counts on the $label', ({ open }) => {
  const db = useTestDatabase(open);

  const visitor = () => randomBytes(16).toString('base64url');
  const take = async (who: string, kind: string) => {
    const { rows } = await db.request('service_role', {}, 'select public.take_lookup($1, $2) as used', { params: [who, kind], commit: true });
    return rows[0]?.used as number;
  };

  it('counts each look-up of a visitor and kind in its window, the 61st answering 61', async () => {
    const who = visitor();
    const answers: number[] = [];
    for (let i = 0; i < 61; i += 1) answers.push(await take(who, 'places'));
    expect(answers).toEqual(Array.from({ length: 61 }, (_, i) => i + 1));
    // Another kind and another visitor have windows of their own.
    expect(await take(who, 'rates')).toBe(1);
    expect(await take(visitor(), 'places')).toBe(1);
  });

  it('starts again at one once the window has ended, and deletes windows long ended', async () => {
    const who = visitor();
    const old = visitor();
    await take(who, 'places');
    await take(who, 'places');
    await take(old, 'rates');
    await db.admin.query(`update public.lookup_counts set window_start = now() - interval '61 seconds' where visitor = $1`, [who]);
    await db.admin.query(`update public.lookup_counts set window_start = now() - interval '11 minutes' where visitor = $1`, [old]);
    expect(await take(who, 'places')).toBe(1);
    expect((await db.admin.query('select 1 from public.lookup_counts where visitor = $1', [old])).rows).toHaveLength(0);
  });

  it('refuses what is not a visitor hash or a known kind (22023)', async () => {
    await expect(take('short', 'places')).rejects.toMatchObject({ code: '22023' });
    await expect(take(visitor(), 'geocode')).rejects.toMatchObject({ code: '22023' });
  });
});
