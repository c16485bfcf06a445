/**
 * Quantity input: positive integers only, minimum 1, at most the stock (or the cart's own limit). The shopper
 * types freely — an emptied field stays empty while they type, and each whole number is taken as it is typed, a
 * number above the stock as the stock — and anything left that is not a quantity becomes 1 when they are done
 * (leaving the field or pressing Enter). At the stock, the field says "Only N left" (read out as it appears).
 */
import { useEffect, useState } from 'react';
import { quantityLimit, stockLimitNote, toQuantity, typedQuantity } from '@/features/cart/cart';
import QuantityField from './QuantityField';
import { quoteQuantity, quoteRequestPath } from './quantity-prices';

interface Props {
  value: number;
  onChange: (quantity: number) => void;
  disabled?: boolean;
  label?: string;
  id: string;
  /** Where a line can be removed, going below 1 is allowed (the cart removes the line). */
  min?: number;
  /** The live stock: the field stops at it. */
  stock?: number;
  /** The book's title: more copies typed than one order takes offers a quote for that many. */
  quoteTitle?: string;
}

export default function QuantityStepper({ value, onChange, disabled = false, label = 'Quantity', id, min = 1, stock, quoteTitle }: Props) {
  const max = quantityLimit(stock);
  const note = disabled ? null : stockLimitNote(value, stock);
  const [draft, setDraft] = useState(String(value));
  /** More copies typed than one order takes: the number to ask a quote for. */
  const [overLimit, setOverLimit] = useState<number | null>(null);
  // A change from the buttons or another tab shows in the field; what is being typed stays.
  useEffect(() => setDraft((typed) => (typed !== '' && toQuantity(typed) === value ? typed : String(value))), [value]);

  function type(text: string) {
    const { shown, quantity, asked } = typedQuantity(text, max);
    setDraft(shown);
    setOverLimit(quoteTitle && asked !== null ? quoteQuantity(asked, max) : null);
    if (quantity !== null) onChange(quantity);
  }
  function done() {
    const quantity = toQuantity(draft, max);
    setDraft(String(quantity));
    if (quantity !== value) onChange(quantity);
  }

  return (
    <QuantityField
      id={id}
      label={label}
      decrease={{
        disabled: disabled || value <= min,
        onClick: () => {
          setOverLimit(null);
          onChange(value - 1);
        },
      }}
      increase={{ disabled: disabled || value >= max, onClick: () => onChange(Math.min(value + 1, max)) }}
      input={{ value: draft, disabled, onChange: (event) => type(event.target.value), onBlur: done, onKeyDown: (event) => event.key === 'Enter' && done() }}
    >
      {overLimit && quoteTitle ? (
        <a href={quoteRequestPath(quoteTitle, overLimit)} className="text-navy underline underline-offset-4">
          Request a quote for {overLimit} copies
        </a>
      ) : (
        note
      )}
    </QuantityField>
  );
}
