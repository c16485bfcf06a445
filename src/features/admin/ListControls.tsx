import type { ReactNode } from 'react';
import { TextField } from '@/features/forms/fields';
import { LoadMore, LoadState, type Pages } from './queries';
import { changeParams, useKeptScroll } from './route';

/**
 * What Load more does on a list at `section`: the next page's cursor joins the pages the address keeps now, in place
 * (a second press before the list is drawn again adds it once).
 */
export const keepNextPage = (section: string, params: URLSearchParams) => (cursor: string) =>
  changeParams(section, params, (now) => ({ after: [...now.getAll('after').filter((after) => after !== cursor), cursor] }), { replace: true });

/**
 * A keyset list at `section` whose pages loaded are the address's: its loading line or failure, `No <what> here.` when
 * empty, else its rows and Load more <more>; scrolled back where it was once every page in the address shows.
 */
export function PagedList<T>({
  pages,
  section,
  params,
  what,
  more = what,
  children,
}: {
  pages: Pages<T>;
  section: string;
  params: URLSearchParams;
  what: string;
  more?: string;
  children: (rows: T[]) => ReactNode;
}) {
  const { state } = pages;
  useKeptScroll(state.status === 'ready' && pages.more.status === 'idle');
  if (state.status !== 'ready') return <LoadState state={state} what={what} />;
  if (state.data.length === 0) return <p className="mt-4 text-slate-700">{`No ${what} here.`}</p>;
  return (
    <>
      {children(state.data)}
      <LoadMore pages={pages} what={more} onMore={keepNextPage(section, params)} />
    </>
  );
}

/** A row of toggle buttons choosing which of a list's views is shown; the pressed one is. */
export function ViewButtons<Id extends string>({
  label,
  views,
  current,
  onChoose,
  className = 'flex flex-wrap gap-2',
}: {
  label: string;
  views: readonly { id: Id; label: string }[];
  current: Id;
  onChoose: (id: Id) => void;
  className?: string;
}) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a row of toggle buttons, not a form's fieldset.
    <div role="group" aria-label={label} className={className}>
      {views.map((v) => (
        <button key={v.id} type="button" aria-pressed={current === v.id} onClick={() => onChoose(v.id)} className={current === v.id ? 'btn-primary' : 'btn-secondary'}>
          {v.label}
        </button>
      ))}
    </div>
  );
}

/** A list's search box. */
export function SearchField({ id, label, value, onChange, className = 'min-w-56 flex-1' }: { id: string; label: string; value: string; onChange: (value: string) => void; className?: string }) {
  return <TextField id={id} label={label} type="search" className={className} value={value} onChange={(e) => onChange(e.target.value)} />;
}
