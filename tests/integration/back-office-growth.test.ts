/**
 * The back office's reads take time by what they answer, not by how many orders the shop has: on PostgreSQL 17
 * every read is timed at 1,000 and at 10,000 generated orders, and fails when its time grows much faster than
 * the rows it answers (a page stays a page; a period's sales grow with the orders paid in it).
 *
 * Each read runs ten times in one statement, and its time is the fastest of three such runs: the machine is shared,
 * and the fastest run is the one least disturbed by anything else. The bound is generous (four times the growth of
 * the rows, and a page of the same size may take up to four times as long): a read that walks every order grows
 * ten times.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { asStaff, createScaleDatabase, generateOrders, NEW_CALLS, readFixtures, type ScaleFixtures, timeInDatabase } from '../load/back-office-orders';

type Database = Awaited<ReturnType<typeof createScaleDatabase>>;
const SIZES = [1_000, 10_000] as const;
const GENEROUS = 4;
/** Each read is run this many times in one statement, so what is timed is the database's work, not the round trip. */
const REPEAT = 10;

describe('back-office reads grow with what they answer, on PostgreSQL 17', () => {
  const shops: Array<{ db: Database; fixtures: ScaleFixtures }> = [];

  beforeAll(async () => {
    for (const size of SIZES) {
      const db = await createScaleDatabase(inject('postgres'), `growth_${size}_${process.pid}`);
      await generateOrders(db.admin, size);
      shops.push({ db, fixtures: await readFixtures(db.admin) });
    }
  }, 120_000);
  afterAll(async () => {
    for (const { db } of shops) await db.drop();
  });

  it.each(NEW_CALLS.map((call) => [call.name, call] as const))('%s', async (_name, call) => {
    const measured = [];
    for (const { db, fixtures } of shops) {
      const answer = await asStaff(db.api, call.sql(fixtures));
      const time = await timeInDatabase(db.api, call.sql(fixtures), REPEAT);
      measured.push({ time, work: Math.max(call.work(answer), 1) });
    }
    const [atSmall, atLarge] = measured as [{ time: number; work: number }, { time: number; work: number }];
    const timeGrowth = atLarge.time / atSmall.time;
    const workGrowth = atLarge.work / atSmall.work;
    expect(timeGrowth, `${call.name}: ${atSmall.time.toFixed(1)} → ${atLarge.time.toFixed(1)} ms for ${atSmall.work} → ${atLarge.work} rows`).toBeLessThanOrEqual(GENEROUS * Math.max(1, workGrowth));
  });
});
