/**
 * The Sales panel's quick periods, as Sydney days (yyyy-mm-dd, from `shopDay()`): this week (Monday to Sunday,
 * as Australian calendars run), the last 7 days (today and the six before), this month, last month, this year and
 * the last five calendar years (this one and the four before). Pure
 * calendar arithmetic on the day's date, so the screen's own time zone never enters.
 */
export type QuickPeriod = 'this_week' | 'last_7_days' | 'this_month' | 'last_month' | 'this_year' | 'last_5_years';

/**
 * The longest period shown by day (a row a day beyond a quarter is more than a table can be read by) and by week
 * (a year; the database refuses days beyond it too). Months and years have no limit short of the database's ten years.
 */
export const MAX_DAYS = { day: 92, week: 366 } as const;

const pad = (n: number) => String(n).padStart(2, '0');
const iso = (d: Date) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
const utc = (day: string) => {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, date));
};
const plusDays = (day: string, days: number) => {
  const d = utc(day);
  d.setUTCDate(d.getUTCDate() + days);
  return iso(d);
};

/** Whether `day` is a real calendar day written yyyy-mm-dd (not 2026-02-31). */
export const isDay = (day: string): boolean => /^\d{4}-\d{2}-\d{2}$/.test(day) && iso(utc(day)) === day;

/** How many days from `from` to `to`, both included. */
export function daysIn(from: string, to: string): number {
  return Math.round((utc(to).getTime() - utc(from).getTime()) / 86_400_000) + 1;
}

/** The first and last day of the month `offset` months from the one `today` is in. */
export function monthOf(today: string, offset: number): { from: string; to: string } {
  const [year, month] = today.split('-').map(Number) as [number, number];
  const first = new Date(Date.UTC(year, month - 1 + offset, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0));
  return { from: iso(first), to: iso(last) };
}

/** The first and last day of a quick period around `today` (a Sydney day). */
export function quickPeriod(choice: QuickPeriod, today: string): { from: string; to: string } {
  switch (choice) {
    case 'this_week': {
      // getUTCDay: Sunday 0 … Saturday 6; Monday starts the week.
      const monday = plusDays(today, -((utc(today).getUTCDay() + 6) % 7));
      return { from: monday, to: plusDays(monday, 6) };
    }
    case 'last_7_days':
      return { from: plusDays(today, -6), to: today };
    case 'this_month':
      return monthOf(today, 0);
    case 'last_month':
      return monthOf(today, -1);
    case 'this_year':
      return { from: `${today.slice(0, 4)}-01-01`, to: `${today.slice(0, 4)}-12-31` };
    case 'last_5_years':
      return { from: `${Number(today.slice(0, 4)) - 4}-01-01`, to: `${today.slice(0, 4)}-12-31` };
  }
}
