/** The Sales panel's quick periods: Sydney days, weeks from Monday, across month and year ends. */
import { describe, expect, it } from 'vitest';
import { daysIn, isDay, quickPeriod } from '@/features/admin/sales-periods';
import { shopDay } from '@/lib/format';

describe('the quick periods of the Sales panel', () => {
  it('this week runs Monday to Sunday around today', () => {
    expect(quickPeriod('this_week', '2026-11-26')).toEqual({ from: '2026-11-23', to: '2026-11-29' }); // a Thursday
    expect(quickPeriod('this_week', '2026-11-23')).toEqual({ from: '2026-11-23', to: '2026-11-29' }); // the Monday
    expect(quickPeriod('this_week', '2026-11-29')).toEqual({ from: '2026-11-23', to: '2026-11-29' }); // the Sunday
    expect(quickPeriod('this_week', '2026-12-01')).toEqual({ from: '2026-11-30', to: '2026-12-06' });
    expect(quickPeriod('this_week', '2027-01-01')).toEqual({ from: '2026-12-28', to: '2027-01-03' });
  });

  it('the last 7 days are today and the six before it', () => {
    expect(quickPeriod('last_7_days', '2026-11-26')).toEqual({ from: '2026-11-20', to: '2026-11-26' });
    expect(quickPeriod('last_7_days', '2026-03-03')).toEqual({ from: '2026-02-25', to: '2026-03-03' });
  });

  it('this month and last month are whole calendar months', () => {
    expect(quickPeriod('this_month', '2026-11-26')).toEqual({ from: '2026-11-01', to: '2026-11-30' });
    expect(quickPeriod('last_month', '2026-01-15')).toEqual({ from: '2025-12-01', to: '2025-12-31' });
  });

  it('this year and the last five years are whole calendar years, this one included', () => {
    expect(quickPeriod('this_year', '2026-11-26')).toEqual({ from: '2026-01-01', to: '2026-12-31' });
    expect(quickPeriod('last_5_years', '2026-11-26')).toEqual({ from: '2022-01-01', to: '2026-12-31' });
    expect(quickPeriod('last_5_years', '2027-01-01')).toEqual({ from: '2023-01-01', to: '2027-12-31' });
  });

  it('counts the days of a period, both ends included', () => {
    expect(daysIn('2026-11-26', '2026-11-26')).toBe(1);
    expect(daysIn('2026-01-01', '2026-12-31')).toBe(365);
    expect(daysIn('2024-01-01', '2024-12-31')).toBe(366);
    expect(daysIn('2022-01-01', '2026-12-31')).toBe(1826);
  });

  it('counts from the shop’s day in Sydney, not the screen’s', () => {
    // 14:30 UTC on Wednesday 25 November is 01:30 on Thursday the 26th in Sydney.
    const today = shopDay(new Date('2026-11-25T14:30:00Z'));
    expect(today).toBe('2026-11-26');
    expect(quickPeriod('last_7_days', today)).toEqual({ from: '2026-11-20', to: '2026-11-26' });
  });
});

describe('isDay', () => {
  it('takes a real calendar day and refuses one the calendar has not, or another way of writing it', () => {
    expect(isDay('2028-02-29')).toBe(true);
    expect(isDay('2026-02-29')).toBe(false);
    expect(isDay('2026-02-31')).toBe(false);
    expect(isDay('2026-13-01')).toBe(false);
    expect(isDay('2026-1-01')).toBe(false);
    expect(isDay('')).toBe(false);
  });
});
