/**
 * The quantity field's markup: − and + around the number, and the note beside it that is read out as it appears.
 * The book page's purchase panel gives it marks for the purchase controls; the cart's stepper, React's handlers.
 */
import type { ButtonHTMLAttributes, HTMLAttributes, InputHTMLAttributes, ReactNode } from 'react';

type Marked<T> = T & { 'data-purchase'?: string };

const STEP = 'h-10 w-10 text-lg font-bold text-navy hover:bg-sky disabled:opacity-40';

interface Props {
  id: string;
  label: string;
  decrease: Marked<ButtonHTMLAttributes<HTMLButtonElement>>;
  increase: Marked<ButtonHTMLAttributes<HTMLButtonElement>>;
  input: Marked<InputHTMLAttributes<HTMLInputElement>>;
  note?: Marked<HTMLAttributes<HTMLSpanElement>>;
  children?: ReactNode;
}

export default function QuantityField({ id, label, decrease, increase, input, note, children }: Props) {
  return (
    <div className="inline-flex flex-wrap items-center gap-x-3 gap-y-1">
      <div className="inline-flex items-center rounded-full border border-slate-400 bg-white">
        <button type="button" className={`${STEP} rounded-l-full`} aria-label={`Decrease ${label.toLowerCase()}`} {...decrease}>
          −
        </button>
        <label htmlFor={id} className="sr-only">
          {label}
        </label>
        <input id={id} type="text" inputMode="numeric" pattern="[0-9]*" aria-describedby={`${id}-stock`} className="h-10 w-14 border-x border-slate-300 text-center font-semibold" {...input} />
        <button type="button" className={`${STEP} rounded-r-full`} aria-label={`Increase ${label.toLowerCase()}`} {...increase}>
          +
        </button>
      </div>
      {/* Always there, so what appears in it is read out. */}
      <span id={`${id}-stock`} aria-live="polite" className="text-sm font-semibold text-amber-900" {...note}>
        {children}
      </span>
    </div>
  );
}
