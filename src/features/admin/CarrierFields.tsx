import { useState } from 'react';
import { TextField } from '@/features/forms/fields';
import type { ShipmentInput } from './shipment';

/**
 * The carrier of parcels shipped by hand: Australia Post, or another carrier by name. `fields` are the form's
 * inputs (ids `<id>` and `<id>-name`); `shipment` makes a parcel's shipment with its tracking number.
 */
export function useCarrier(id: string) {
  const [carrier, setCarrier] = useState<'auspost' | 'other'>('auspost');
  const [carrierName, setCarrierName] = useState('');
  const shipment = (trackingNumber: string): ShipmentInput => (carrier === 'auspost' ? { carrier, trackingNumber } : { carrier, carrierName, trackingNumber });
  const fields = (
    <>
      <div>
        <label htmlFor={id} className="label">
          Carrier
        </label>
        <select id={id} className="field" value={carrier} onChange={(e) => setCarrier(e.target.value === 'other' ? 'other' : 'auspost')}>
          <option value="auspost">Australia Post</option>
          <option value="other">Another carrier</option>
        </select>
      </div>
      {carrier === 'other' && <TextField id={`${id}-name`} label="Carrier name" value={carrierName} maxLength={60} onChange={(e) => setCarrierName(e.target.value)} />}
    </>
  );
  return { shipment, fields };
}
