/**
 * Sales: for this week, the last 7 days, this month, last month, this year, the last five years or a date range, by
 * day (up to a quarter), by week (up to a year), by month or by year — orders, copies sold per title,
 * takings (goods, shipping, refunds, net) and, when the shop is GST-registered, the GST included. Every figure
 * comes from the database in one call (admin_sales); the chart draws the same net takings the table lists.
 * Download CSV gives the period's orders with their lines in Xero's import layout, fetched 1,000 orders at a time
 * and written as they arrive.
 */
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { changeParams } from './route';
import { SITE } from '@/config/site';
import { countOf, formatPrice, shopDay } from '@/lib/format';
import { getSales, listSaleOrders, type SaleOrder, type Sales, type SalesGrouping } from './sales-api';
import type { Page } from './api';
import { salesCsvLines, XERO_HEADER } from './sales-csv';
import { daysIn, isDay, MAX_DAYS, monthOf, quickPeriod, type QuickPeriod } from './sales-periods';
import { CSV_TYPE, csvLines } from '@/lib/csv';
import { saveFile } from '@/lib/save-file';
import { keys, LoadState, loaded } from './queries';
import { toast } from '@/features/toast/store';
import { TableHead } from '@/components/TableHead';
import { ViewButtons } from './ListControls';
import { PreordersOwed } from './PreordersPanel';
import { ActionButton, TextField } from '@/features/forms/fields';
import { Panel, Section } from '@/components/Section';

type PeriodChoice = QuickPeriod | 'range';

const dayLabel = new Intl.DateTimeFormat('en-AU', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const weekLabel = new Intl.DateTimeFormat('en-AU', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
const monthLabel = new Intl.DateTimeFormat('en-AU', { month: 'long', year: 'numeric', timeZone: 'UTC' });
const shortMonth = new Intl.DateTimeFormat('en-AU', { month: 'short', timeZone: 'UTC' });
const GROUPS: Record<SalesGrouping, { label: string; plural: string }> = {
  day: { label: 'Day', plural: 'days' },
  week: { label: 'Week', plural: 'weeks' },
  month: { label: 'Month', plural: 'months' },
  year: { label: 'Year', plural: 'years' },
};
const fullDay = new Intl.DateTimeFormat('en-AU', { dateStyle: 'long', timeZone: 'UTC' });

function periodLabel(period: string, by: SalesGrouping): string {
  const date = new Date(`${period.slice(0, 10)}T00:00:00Z`);
  if (by === 'year') return period.slice(0, 4);
  // A week is named by its Monday, with the year: a year of weeks can run across two.
  if (by === 'week') return `Week of ${weekLabel.format(date)}`;
  return by === 'month' ? monthLabel.format(date) : dayLabel.format(date);
}

/** A bar's label under the chart: the day of the month, the month (with its year when the months run past one), the year. */
function axisLabel(period: string, by: SalesGrouping, count: number): string {
  if (by === 'year') return period.slice(0, 4);
  if (by === 'day') return period.slice(8, 10);
  if (by === 'week') return `${Number(period.slice(8, 10))}/${Number(period.slice(5, 7))}`;
  const month = shortMonth.format(new Date(`${period.slice(0, 10)}T00:00:00Z`));
  return count > 12 ? `${month} ${period.slice(2, 4)}` : month;
}

/** A label centred under its bar, unless that would cut it off at either edge of the chart (narrow bars, as 60 months make). */
function labelAnchor(x: number, width: number): 'start' | 'middle' | 'end' {
  if (x < 24) return 'start';
  return x > width - 24 ? 'end' : 'middle';
}

/** Net takings per period as bars: plain SVG, described for screen readers; the table below holds the figures. */
function SalesChart({ sales }: { sales: Sales }) {
  const id = useId();
  const width = 640;
  const height = 200;
  const top = 12;
  const bottom = 24;
  const max = Math.max(1, ...sales.series.map((s) => s.net));
  const slot = width / Math.max(1, sales.series.length);
  const barWidth = Math.max(2, Math.min(48, slot * 0.7));
  const labelEvery = Math.ceil(sales.series.length / 8);
  const best = sales.series.reduce<Sales['series'][number] | null>((a, s) => (!a || s.net > a.net ? s : a), null);
  return (
    <figure className="mt-4 rounded-2xl bg-white p-4 ring-1 ring-slate-200">
      <figcaption className="font-semibold" aria-hidden="true">
        Net takings by {sales.by}
      </figcaption>
      <svg viewBox={`0 0 ${width} ${height}`} className="mt-2 h-auto w-full" role="img" aria-labelledby={`${id}-title ${id}-desc`}>
        <title id={`${id}-title`}>{`Net takings by ${sales.by}`}</title>
        <desc id={`${id}-desc`}>
          {`${sales.series.length} ${GROUPS[sales.by].plural}, net takings ${formatPrice(sales.totals.net)} in all`}
          {best && best.net > 0 ? `; the highest, ${formatPrice(best.net)}, on ${periodLabel(best.period, sales.by)}.` : '.'} The table below lists each figure.
        </desc>
        <line x1="0" x2={width} y1={height - bottom} y2={height - bottom} stroke="#94a3b8" strokeWidth="1" />
        {sales.series.map((s, i) => {
          const h = s.net > 0 ? ((height - top - bottom) * s.net) / max : 0;
          const x = i * slot + (slot - barWidth) / 2;
          return (
            <g key={s.period}>
              <rect x={x} y={height - bottom - h} width={barWidth} height={h} rx="2" className="fill-navy">
                <title>{`${periodLabel(s.period, sales.by)}: ${formatPrice(s.net)}`}</title>
              </rect>
              {i % labelEvery === 0 && (
                <text x={i * slot + slot / 2} y={height - 6} textAnchor={labelAnchor(i * slot + slot / 2, width)} fontSize="12" className="fill-slate-600">
                  {axisLabel(s.period, sales.by, sales.series.length)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
    </figure>
  );
}

function Figure({ term, value, testId }: { term: string; value: string; testId: string }) {
  return (
    <div className="rounded-2xl bg-white p-3 ring-1 ring-slate-200">
      <dt className="text-sm font-semibold text-slate-600">{term}</dt>
      <dd className="text-xl font-bold" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

function SalesFigures({ sales }: { sales: Sales }) {
  const t = sales.totals;
  const gst = SITE.gstRegistered;
  return (
    <>
      <dl className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-4">
        <Figure term="Orders" value={String(t.orders)} testId="sales-orders" />
        <Figure term="Copies sold" value={String(t.copies)} testId="sales-copies" />
        <Figure term="Goods" value={formatPrice(t.goods)} testId="sales-goods" />
        <Figure term="Codes' discounts" value={formatPrice(t.discounts)} testId="sales-discounts" />
        <Figure term="Shipping" value={formatPrice(t.shipping)} testId="sales-shipping" />
        <Figure term="Refunds" value={formatPrice(t.refunds)} testId="sales-refunds" />
        <Figure term="Net takings" value={formatPrice(t.net)} testId="sales-net" />
        {gst && <Figure term="GST included" value={formatPrice(t.gst)} testId="sales-gst" />}
        {gst && <Figure term="Export sales (GST-free)" value={formatPrice(t.export_sales)} testId="sales-exports" />}
      </dl>
      <p className="mt-2 text-sm text-slate-700">
        An order counts on the day it was paid (Sydney time); a refund counts against its order. Net takings are goods less codes' discounts, plus shipping, less refunds. Copies sold leave out orders
        cancelled or refunded in full.
        {gst && ' GST is one eleventh of what Australian buyers paid and kept; sales abroad are GST-free.'}
      </p>
      <SalesChart sales={sales} />
      <Section id="titles-heading" title="Copies sold per title" className="mt-6">
        {sales.titles.length === 0 ? (
          <p className="mt-2 text-slate-700">No copies sold in this period.</p>
        ) : (
          <table className="mt-2 w-full rounded-2xl bg-white text-left text-sm ring-1 ring-slate-200">
            <TableHead className="border-b border-slate-200 text-slate-600" cell="px-3 py-2" columns={['Title', { label: 'Copies', right: true }, { label: 'Goods', right: true }]} />
            <tbody>
              {sales.titles.map((title) => (
                <tr key={title.product_id} className="border-b border-slate-100 last:border-0">
                  <th scope="row" className="px-3 py-2 font-normal">
                    {title.title}
                  </th>
                  <td className="px-3 py-2 text-right">{title.copies}</td>
                  <td className="px-3 py-2 text-right">{formatPrice(title.goods)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Section>
      <Section id="periods-heading" title={<>By {sales.by}</>} className="mt-6">
        <table className="mt-2 w-full rounded-2xl bg-white text-left text-sm ring-1 ring-slate-200">
          <TableHead
            className="border-b border-slate-200 text-slate-600"
            cell="px-2 py-2"
            columns={[
              GROUPS[sales.by].label,
              { label: 'Orders', right: true },
              ...['Copies', 'Goods', 'Shipping', 'Refunds'].map((label) => ({ label, right: true, className: 'hidden sm:table-cell' })),
              { label: 'Net', right: true },
              gst && { label: 'GST', right: true },
            ]}
          />
          <tbody>
            {sales.series.map((s) => (
              <tr key={s.period} className="border-b border-slate-100 last:border-0">
                <th scope="row" className="px-2 py-1 font-normal whitespace-nowrap">
                  {periodLabel(s.period, sales.by)}
                </th>
                <td className="px-2 py-1 text-right">{s.orders}</td>
                <td className="hidden px-2 py-1 text-right sm:table-cell">{s.copies}</td>
                <td className="hidden px-2 py-1 text-right sm:table-cell">{formatPrice(s.goods)}</td>
                <td className="hidden px-2 py-1 text-right sm:table-cell">{formatPrice(s.shipping)}</td>
                <td className="hidden px-2 py-1 text-right sm:table-cell">{formatPrice(s.refunds)}</td>
                <td className="px-2 py-1 text-right">{formatPrice(s.net)}</td>
                {gst && <td className="px-2 py-1 text-right">{formatPrice(s.gst)}</td>}
              </tr>
            ))}
          </tbody>
        </table>
      </Section>
    </>
  );
}

const PERIODS: ReadonlyArray<{ id: PeriodChoice; label: string }> = [
  { id: 'this_week', label: 'This week' },
  { id: 'last_7_days', label: 'Last 7 days' },
  { id: 'this_month', label: 'This month' },
  { id: 'last_month', label: 'Last month' },
  { id: 'this_year', label: 'This year' },
  { id: 'last_5_years', label: 'Last 5 years' },
  { id: 'range', label: 'Date range' },
];
const GROUPINGS = ['day', 'week', 'month', 'year'] as const satisfies readonly SalesGrouping[];

/** The period and grouping are kept in the address (`#sales?period=range&from=…&to=…&by=week`), so Back and a reload show the same figures. */
export function SalesPanel({ params }: { params: URLSearchParams }) {
  const today = shopDay();
  const choice = PERIODS.find((p) => p.id === params.get('period'))?.id ?? 'this_month';
  const by = GROUPINGS.find((g) => g === params.get('by')) ?? 'day';
  const thisMonth = monthOf(today, 0);
  const range = { from: params.get('from') ?? thisMonth.from, to: params.get('to') ?? thisMonth.to };
  const change = (changes: Record<string, string | null>, replace = false) => changeParams('sales', params, changes, { replace });
  /** While the CSV is being written: how many orders it holds so far. */
  const [downloading, setDownloading] = useState<number | null>(null);
  const period = choice === 'range' ? range : quickPeriod(choice, today);
  const dated = isDay(period.from) && isDay(period.to);
  const valid = dated && period.from <= period.to;
  // By day and by week only for a period a table of them can show; a longer one is shown by month until another grouping is chosen.
  const days = valid ? daysIn(period.from, period.to) : 0;
  const allowed = (g: SalesGrouping) => !(g === 'day' || g === 'week') || days <= MAX_DAYS[g];
  const grouping: SalesGrouping = allowed(by) ? by : 'month';
  const state = loaded(
    useQuery({
      queryKey: [...keys.sales, period.from, period.to, grouping],
      queryFn: () =>
        valid ? getSales(period.from, period.to, grouping) : Promise.reject(new Error(dated ? 'Choose a start date on or before the end date.' : 'Choose a start date and an end date.')),
    }),
  );

  async function downloadCsv() {
    setDownloading(0);
    try {
      // Page after page, each written while the next is fetched: a year of orders never waits on one long answer.
      const parts = [csvLines([XERO_HEADER])];
      let count = 0;
      let pending: Promise<Page<SaleOrder>> | null = listSaleOrders(period.from, period.to);
      while (pending) {
        const page: Page<SaleOrder> = await pending;
        pending = page.next ? listSaleOrders(period.from, period.to, page.next) : null;
        parts.push(salesCsvLines(page.rows));
        count += page.rows.length;
        setDownloading(count);
      }
      saveFile(parts, `sales-${period.from}-to-${period.to}.csv`, CSV_TYPE);
    } catch (error) {
      toast({ title: error instanceof Error ? error.message : 'The download failed.', variant: 'error' });
    } finally {
      setDownloading(null);
    }
  }

  return (
    <Panel id="sales-heading" title="Sales">
      <div className="mt-4 flex flex-wrap items-end gap-3">
        <ViewButtons label="Period" views={PERIODS} current={choice} onChoose={(id) => change({ period: id === 'this_month' ? null : id })} />
        {/* biome-ignore lint/a11y/useSemanticElements: a row of toggle buttons, not a form's fieldset. */}
        <div role="group" aria-label="Group by" className="flex flex-wrap gap-2">
          {GROUPINGS.map((g) => (
            <button
              key={g}
              type="button"
              aria-pressed={grouping === g}
              disabled={!allowed(g)}
              aria-describedby={allowed(g) ? undefined : 'sales-grouping-note'}
              onClick={() => change({ by: g === 'day' ? null : g })}
              className={grouping === g ? 'btn-primary' : 'btn-secondary'}
            >
              By {g}
            </button>
          ))}
        </div>
      </div>
      {!allowed('day') && (
        <p id="sales-grouping-note" className="mt-2 text-sm text-slate-700">
          By day is for periods of up to {MAX_DAYS.day} days{allowed('week') ? '' : `, by week up to ${MAX_DAYS.week}`}: this one is shown by {grouping}.
        </p>
      )}
      {choice === 'range' && (
        <div className="mt-3 flex flex-wrap gap-3">
          <TextField id="sales-from" label="From" type="date" value={range.from} max={range.to} onChange={(e) => change({ ...range, from: e.target.value }, true)} />
          <TextField id="sales-to" label="To" type="date" value={range.to} min={range.from} onChange={(e) => change({ ...range, to: e.target.value }, true)} />
        </div>
      )}
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <p className="font-semibold" data-testid="sales-period">
          {valid ? `${fullDay.format(new Date(`${period.from}T00:00:00Z`))} to ${fullDay.format(new Date(`${period.to}T00:00:00Z`))}` : 'Choose a period'}
        </p>
        <ActionButton className="btn-secondary" onClick={downloadCsv} busy={downloading !== null} ready={valid}>
          Download CSV
        </ActionButton>
        {downloading !== null && (
          <p role="status" className="text-sm text-slate-700">
            Writing the CSV: {countOf(downloading, 'order')} so far...
          </p>
        )}
      </div>
      <p className="mt-1 text-sm text-slate-700">The CSV lists the period's orders with their lines, ready for Xero's sales-invoice import (choose "Tax inclusive") or a spreadsheet.</p>
      <LoadState state={state} what="the sales" />
      {state.status === 'ready' && <SalesFigures sales={state.data} />}
      {/* A pre-order is a sale when it is paid; what its buyers still wait for is owed. */}
      <PreordersOwed />
    </Panel>
  );
}
