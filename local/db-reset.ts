/** `npm run db:reset`: wipes the local data folder and recreates it from the migrations and the seed. */
import { DEFAULT_DATA_DIR, openDatabase, wipeData } from './backend/database';

wipeData(DEFAULT_DATA_DIR);
const db = await openDatabase({ dir: DEFAULT_DATA_DIR });
const { rows } = await db.query<{ n: number }>('select count(*)::int as n from public.products');
await db.close();
console.log(`Local database reset at ${DEFAULT_DATA_DIR}: ${rows[0]?.n ?? 0} product(s) seeded.`);
