import type { ComponentProps } from 'react';

/** One part of a schools' form under its legend; the invoice editor's in a white card. */
export function Fieldset({ legend, className = 'grid gap-4 rounded-2xl bg-white p-4 ring-1 ring-slate-200 sm:p-6', children, ...fieldset }: { legend: string } & ComponentProps<'fieldset'>) {
  return (
    <fieldset className={className} {...fieldset}>
      <legend className="mb-2 font-display text-xl font-bold text-navy">{legend}</legend>
      {children}
    </fieldset>
  );
}
