/** Quantity input: positive integers only, minimum 1; anything non-numeric becomes 1. */
import { toQuantity } from '@/features/cart/cart';

interface Props {
  value: number;
  onChange: (quantity: number) => void;
  disabled?: boolean;
  label?: string;
  id: string;
  /** Where a line can be removed, going below 1 is allowed (the cart removes the line). */
  min?: number;
}

export default function QuantityStepper({ value, onChange, disabled = false, label = 'Quantity', id, min = 1 }: Props) {
  return (
    <div className="inline-flex items-center rounded-full border border-slate-400 bg-white">
      <button
        type="button"
        className="h-10 w-10 rounded-l-full text-lg font-bold text-navy hover:bg-sky disabled:opacity-40"
        aria-label={`Decrease ${label.toLowerCase()}`}
        disabled={disabled || value <= min}
        onClick={() => onChange(value - 1)}
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
        value={value}
        disabled={disabled}
        onChange={(event) => onChange(toQuantity(event.target.value))}
        className="h-10 w-14 border-x border-slate-300 text-center font-semibold"
      />
      <button
        type="button"
        className="h-10 w-10 rounded-r-full text-lg font-bold text-navy hover:bg-sky disabled:opacity-40"
        aria-label={`Increase ${label.toLowerCase()}`}
        disabled={disabled}
        onClick={() => onChange(value + 1)}
      >
        +
      </button>
    </div>
  );
}
