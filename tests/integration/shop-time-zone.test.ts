/**
 * The shop counts days in one time zone, SHOP_TIME_ZONE: the back office's sales days, a code's first and last
 * day. The database functions that count days name the zone in their SQL; this keeps every zone they name the
 * same as the app's, on the embedded backend and on PostgreSQL 17, so changing the constant without the SQL fails.
 */
import { describe, expect, it } from 'vitest';
import { SHOP_TIME_ZONE } from '@/config/constants';
import { DATABASES, useTestDatabase } from '../helpers/test-databases';

describe.each(DATABASES)('the shop’s time zone on the $label', ({ open }) => {
  const db = useTestDatabase(open);

  it('every public function that names a time zone names SHOP_TIME_ZONE', async () => {
    const { rows } = await db.admin.query<{ name: string; source: string }>(
      `select p.proname as name, p.prosrc as source from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname = 'public' and p.prosrc ilike '%at time zone%'`,
    );
    const zones = rows.flatMap(({ name, source }) => [...source.matchAll(/at time zone\s+'([^']+)'/gi)].map((match) => `${name}: ${match[1]}`));
    // The functions the back office's sales and the promotion codes count days with.
    expect(rows.map((row) => row.name)).toEqual(expect.arrayContaining(['sales_orders_in', 'admin_create_code']));
    expect(zones.length).toBeGreaterThan(0);
    expect(zones.filter((zone) => !zone.endsWith(`: ${SHOP_TIME_ZONE}`))).toEqual([]);
  });
});
