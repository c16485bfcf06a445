import type { ReactNode } from 'react';

/** One part of the invoice editor's form, under its legend. */
export function Fieldset({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <fieldset className="grid gap-4 rounded-2xl bg-white p-4 ring-1 ring-slate-200 sm:p-6">
      <legend className="mb-2 font-display text-xl font-bold text-navy">{legend}</legend>
      {children}
    </fieldset>
  );
}
