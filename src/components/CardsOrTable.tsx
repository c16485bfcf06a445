import type { ReactNode } from 'react';

// Whole class names, so Tailwind finds them.
const SHOWN = { sm: { cards: 'sm:hidden', table: 'sm:block' }, md: { cards: 'md:hidden', table: 'md:block' } } as const;

/**
 * A list as cards below the `from` width and as a table from it up, since its columns do not fit a phone: `cards`
 * are the list's items, `head` (a TableHead) and `rows` the table's. `frame` adds to the table's frame's classes.
 */
export function CardsOrTable(props: { label: string; from: 'sm' | 'md'; cards: ReactNode; head: ReactNode; rows: ReactNode; table?: string; frame?: string }) {
  const { label, from, cards, head, rows, table = 'w-full text-left text-sm', frame } = props;
  return (
    <>
      <ul className={`mt-4 space-y-3 ${SHOWN[from].cards}`} aria-label={label}>
        {cards}
      </ul>
      <div className={['mt-4 hidden rounded-2xl bg-white ring-1 ring-slate-200', frame, SHOWN[from].table].filter(Boolean).join(' ')}>
        <table className={table}>
          {head}
          <tbody>{rows}</tbody>
        </table>
      </div>
    </>
  );
}
