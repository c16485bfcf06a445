import type { UseFormRegisterReturn } from 'react-hook-form';
import { TextField } from '@/features/forms/fields';

/**
 * The carrier of parcels shipped by hand, as a form's fields (ids `<id>` and `<id>-name`): Australia Post, or
 * another carrier by name, asked for only when chosen.
 */
export function CarrierFields({
  id,
  carrier,
  carrierName,
  other,
  nameError,
}: {
  id: string;
  carrier: UseFormRegisterReturn;
  carrierName: UseFormRegisterReturn;
  other: boolean;
  nameError: string | undefined;
}) {
  return (
    <>
      <div>
        <label htmlFor={id} className="label">
          Carrier
        </label>
        <select id={id} className="field" {...carrier}>
          <option value="auspost">Australia Post</option>
          <option value="other">Another carrier</option>
        </select>
      </div>
      {other && <TextField id={`${id}-name`} label="Carrier name" maxLength={60} error={nameError} {...carrierName} />}
    </>
  );
}
