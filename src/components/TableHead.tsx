import type { ReactNode } from 'react';

/**
 * One column's heading. Figures line up on the right; a column of controls has a heading only screen readers hear;
 * `key` names a heading that is not plain text.
 */
export type Column = string | { label: ReactNode; key?: string; right?: boolean; srOnly?: boolean; className?: string };

/** A table's heading row. A column shown only sometimes is falsy while it is not. */
export function TableHead({ columns, className, cell }: { columns: readonly (Column | false | null | undefined)[]; className: string; cell: string }) {
  return (
    <thead className={className}>
      <tr>
        {columns.map((column) => {
          if (!column) return null;
          const c = typeof column === 'string' ? { label: column } : column;
          return (
            <th key={c.key ?? String(c.label)} scope="col" className={[cell, c.className, c.right && 'text-right'].filter(Boolean).join(' ')}>
              {c.srOnly ? <span className="sr-only">{c.label}</span> : c.label}
            </th>
          );
        })}
      </tr>
    </thead>
  );
}
