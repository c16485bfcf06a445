import { changeParams } from './route';

/**
 * What Load more does on a list at `section`: the next page's cursor joins the pages the address keeps now, in place
 * (a second press before the list is drawn again adds it once).
 */
export const keepNextPage = (section: string, params: URLSearchParams) => (cursor: string) =>
  changeParams(section, params, (now) => ({ after: [...now.getAll('after').filter((after) => after !== cursor), cursor] }), { replace: true });

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
  return (
    <div className={className}>
      <label htmlFor={id} className="label">
        {label}
      </label>
      <input id={id} type="search" className="field" value={value} onChange={(e) => onChange(e.target.value)} />
    </div>
  );
}
