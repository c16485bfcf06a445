/**
 * Quantity input: positive integers only, minimum 1. The shopper types freely — an emptied field stays empty
 * while they type, and each whole number is taken as it is typed — and anything left that is not a quantity
 * becomes 1 when they are done (leaving the field or pressing Enter).
 */
import { useEffect, useState } from 'react';
import { toQuantity } from '@/features/cart/cart';

interface Props {
  value: number;
  onChange: (quantity: number) => void;
  disabled?: boolean;
  label?: string;
  id: string;
  /** Where a line can be removed, going below 1 is allowed (the cart removes the line). */
  min?: number;
  /** A product's purchase quantity: marked for the purchase controls that work before hydration. */
  purchase?: boolean;
}

export default function QuantityStepper({ value, onChange, disabled = false, label = 'Quantity', id, min = 1, purchase = false }: Props) {
  const mark = (role: 'decrease' | 'increase' | 'quantity') => (purchase ? { 'data-purchase': role } : {});
  const [draft, setDraft] = useState(String(value));
  // A change from the buttons or another tab shows in the field; what is being typed stays.
  useEffect(() => setDraft((typed) => (typed !== '' && toQuantity(typed) === value ? typed : String(value))), [value]);

  function type(text: string) {
    const digits = text.replace(/\D/g, '');
    setDraft(digits);
    if (digits !== '' && Number(digits) >= 1) onChange(toQuantity(digits));
  }
  function done() {
    const quantity = toQuantity(draft);
    setDraft(String(quantity));
    if (quantity !== value) onChange(quantity);
  }

  return (
    <div className="inline-flex items-center rounded-full border border-slate-400 bg-white">
      <button
        type="button"
        className="h-10 w-10 rounded-l-full text-lg font-bold text-navy hover:bg-sky disabled:opacity-40"
        aria-label={`Decrease ${label.toLowerCase()}`}
        disabled={disabled || value <= min}
        onClick={() => onChange(value - 1)}
        {...mark('decrease')}
      >
        −
      </button>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <input
        id={id}
        type="text"
        inputMode="numeric"
        pattern="[0-9]*"
        value={draft}
        disabled={disabled}
        onChange={(event) => type(event.target.value)}
        onBlur={done}
        onKeyDown={(event) => event.key === 'Enter' && done()}
        {...mark('quantity')}
        className="h-10 w-14 border-x border-slate-300 text-center font-semibold"
      />
      <button
        type="button"
        className="h-10 w-10 rounded-r-full text-lg font-bold text-navy hover:bg-sky disabled:opacity-40"
        aria-label={`Increase ${label.toLowerCase()}`}
        disabled={disabled}
        onClick={() => onChange(value + 1)}
        {...mark('increase')}
      >
        +
      </button>
    </div>
  );
}
