import type { Ref, SelectHTMLAttributes } from 'react';
import { AU_STATE_CODES } from '@/config/constants';
import { FieldError, invalidProps } from '@/features/forms/fields';

type StateSelectProps = { id: string; error: string | undefined; ref?: Ref<HTMLSelectElement> } & SelectHTMLAttributes<HTMLSelectElement>;

/** The Australian state or territory of a delivery address (the quote form's and the invoice's), its error under it. */
export function StateSelect({ id, error, ...select }: StateSelectProps) {
  return (
    <div>
      <label htmlFor={id} className="label">
        State or territory
      </label>
      <select id={id} className="field" {...select} {...invalidProps(id, error)}>
        <option value="">Select…</option>
        {AU_STATE_CODES.map((code) => (
          <option key={code} value={code}>
            {code}
          </option>
        ))}
      </select>
      <FieldError fieldId={id} message={error} />
    </div>
  );
}
