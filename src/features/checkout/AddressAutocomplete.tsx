/**
 * Address line 1 with suggestions (250 ms after typing stops, from 3 characters): each pause in the shopper's typing
 * is looked up once, whether or not the field still has focus, and nothing else is (the line filled by a choice, or
 * focus coming back). Choosing one fills the address; any lookup failure (a refused or expired look-up session, the visitor's limit) is silent and the field
 * stays a plain text input. The look-up session, and with it Google's session for one address, is the page's
 * (lookup-session.ts): the suggestions and the details call of one address share it, the next address gets a new one.
 */
import { useEffect, useEffectEvent, useId, useState } from 'react';
import { TIMINGS } from '@/config/constants';
import { useDebounced } from '@/lib/use-debounced';
import { FieldError, invalidProps } from '@/features/forms/fields';
import { addressDetails, suggestAddresses } from './api';

interface Props {
  value: string;
  country: string;
  onChange: (value: string) => void;
  onSelect: (address: { line1: string; line2: string; city: string; state: string; postal_code: string; country: string }) => void;
  readOnly?: boolean;
  id: string;
  /** A problem with the line, shown under it and tied to it. */
  error?: string | undefined;
}

export default function AddressAutocomplete({ value, country, onChange, onSelect, readOnly, id, error }: Props) {
  const listId = useId();
  const [predictions, setPredictions] = useState<Array<{ place_id: string; description: string }>>([]);
  const [active, setActive] = useState(-1);
  const [focused, setFocused] = useState(false);
  // What the shopper typed, each keystroke a value of its own; null once a suggestion is chosen. Focus only decides
  // whether the list shows: a lookup tied to it was skipped when a blur's late reset landed after the next focus.
  const [typed, setTyped] = useState<{ text: string } | null>(null);
  const term = useDebounced(typed, TIMINGS.addressSuggestDebounceMs);
  // A pause that is no longer the latest typing (a choice made since, as the country it sets changes) asks nothing.
  const stillTyped = useEffectEvent((pause: { text: string }) => pause === typed);

  useEffect(() => {
    if (!term || !stillTyped(term) || term.text.trim().length < 3) return setPredictions([]);
    let current = true;
    suggestAddresses(term.text.trim(), country).then(
      (r) => current && setPredictions(r.predictions),
      () => current && setPredictions([]),
    );
    return () => {
      current = false;
    };
  }, [term, country]);

  async function choose(placeId: string) {
    setPredictions([]);
    setTyped(null);
    try {
      const { address } = await addressDetails(placeId);
      onSelect(address);
    } catch {
      // Silent: the shopper can keep typing the address by hand.
    }
  }

  const open = focused && predictions.length > 0;
  return (
    <div className="relative">
      <label htmlFor={id} className="label">
        Address line 1
      </label>
      <input
        id={id}
        type="text"
        className="field"
        autoComplete="address-line1"
        required
        maxLength={200}
        value={value}
        readOnly={readOnly}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={open && active >= 0 ? `${listId}-${active}` : undefined}
        {...invalidProps(id, error)}
        onChange={(e) => {
          onChange(e.target.value);
          setTyped({ text: e.target.value });
          setActive(-1);
        }}
        onFocus={() => setFocused(true)}
        onBlur={(e) => {
          // Late, so a press on a suggestion lands first; by then the field may have focus again.
          const input = e.currentTarget;
          window.setTimeout(() => setFocused(document.activeElement === input), 150);
        }}
        onKeyDown={(e) => {
          if (!open) return;
          if (e.key === 'ArrowDown') setActive((i) => Math.min(i + 1, predictions.length - 1));
          else if (e.key === 'ArrowUp') setActive((i) => Math.max(i - 1, 0));
          else if (e.key === 'Enter' && active >= 0) choose(predictions[active]!.place_id);
          else if (e.key === 'Escape') setPredictions([]);
          else return;
          e.preventDefault();
        }}
      />
      <ul id={listId} role="listbox" aria-label="Address suggestions" hidden={!open} className="absolute z-10 mt-1 w-full overflow-hidden rounded-lg bg-white shadow-lg ring-1 ring-slate-300">
        {predictions.map((p, i) => (
          // biome-ignore lint/a11y/useFocusableInteractive: options are reached with the arrow keys from the input (aria-activedescendant), as the combobox pattern has it.
          <li
            key={p.place_id}
            id={`${listId}-${i}`}
            role="option"
            aria-selected={i === active}
            className={`cursor-pointer px-3 py-2 ${i === active ? 'bg-sky' : 'hover:bg-slate-50'}`}
            onMouseDown={() => choose(p.place_id)}
          >
            {p.description}
          </li>
        ))}
      </ul>
      <FieldError fieldId={id} message={error} />
    </div>
  );
}
