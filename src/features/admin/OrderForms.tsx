/** The order's forms for shipping by hand, the publisher's own note and a corrected delivery address. */
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from '@/lib/zod';
import { ActionButton, TextField } from '@/features/forms/fields';
import { CarrierFields } from '@/features/shipping/CarrierFields';
import { type AddressInput, addressSchema, type OrderActionRequest, shipForm, type ShipFormValues, shipmentOf } from '@/features/staff-actions/order-actions';
import { toast } from '@/features/toast/store';
import { countryName } from '@/lib/format';
import { changeAddress, type OrderDetail as Order, setOrderNote } from './orders-api';
import { ORDER_CHANGES, useAction, useRefresh } from './queries';

export type Act = (request: OrderActionRequest) => Promise<boolean>;

/** Marks the order shipped with a tracking number typed (or corrects it): the customer is emailed it. */
export function ShipForm({ order, act, busy }: { order: Order; act: Act; busy: boolean }) {
  // The number saved comes back into the same form (`values`), so focus stays on the button pressed.
  const {
    register,
    handleSubmit,
    watch,
    formState: { errors },
  } = useForm<ShipFormValues>({ resolver: zodResolver(shipForm), values: { carrier: 'auspost', carrierName: '', trackingNumber: order.tracking_number ?? '' } });
  const error = errors.trackingNumber?.message;
  const ship = (typed: ShipFormValues) => act({ action: 'ship', orderId: order.id, shipment: shipmentOf(typed, typed.trackingNumber) });

  return (
    <form onSubmit={handleSubmit(ship)} noValidate className="rounded-2xl bg-white p-4 ring-1 ring-slate-200" aria-labelledby="ship-heading">
      <h3 id="ship-heading" className="text-lg font-bold">
        {order.status === 'shipped' ? 'Correct the tracking number' : 'Mark as shipped'}
      </h3>
      <div className="mt-3 grid gap-3 sm:grid-cols-3">
        <CarrierFields id="ship-carrier" carrier={register('carrier')} carrierName={register('carrierName')} other={watch('carrier') === 'other'} nameError={errors.carrierName?.message} />
        <div>
          <label htmlFor="ship-tracking" className="label">
            Tracking number
          </label>
          <input
            id="ship-tracking"
            className="field font-mono"
            maxLength={64}
            {...register('trackingNumber')}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'ship-error' : undefined}
          />
        </div>
      </div>
      {error && (
        <p id="ship-error" role="alert" className="mt-2 text-sm font-semibold text-red-800">
          {error}
        </p>
      )}
      <ActionButton type="submit" className="btn-primary mt-3" busy={busy}>
        Confirm shipment
      </ActionButton>
    </form>
  );
}

const noteForm = z.object({ note: z.string().max(2000) });

/** The publisher's own note on the order: never shown to the customer. */
export function NoteForm({ order }: { order: Order }) {
  const saved = order.internal_note ?? '';
  // The note saved comes back into the same form (`values`), not a new one, so focus stays on Save note.
  const { register, handleSubmit, watch } = useForm({ resolver: zodResolver(noteForm), values: { note: saved } });
  const { act, busy } = useAction(({ note }: { note: string }) => setOrderNote(order.id, note).then(() => 'Note saved.'), ORDER_CHANGES);
  return (
    <form className="rounded-2xl bg-white p-4 ring-1 ring-slate-200" onSubmit={handleSubmit(act)}>
      <label htmlFor="order-note" className="label">
        Internal note (the customer never sees it)
      </label>
      <textarea id="order-note" className="field min-h-20" maxLength={2000} {...register('note')} />
      <ActionButton type="submit" className="btn-secondary mt-2" busy={busy} ready={watch('note').trim() !== saved}>
        Save note
      </ActionButton>
    </form>
  );
}

const ADDRESS_FIELDS: ReadonlyArray<{ key: keyof AddressInput; label: string }> = [
  { key: 'addressLine1', label: 'Address line 1' },
  { key: 'addressLine2', label: 'Address line 2' },
  { key: 'city', label: 'City / suburb' },
  { key: 'state', label: 'State / region' },
  { key: 'postalCode', label: 'Postcode' },
  { key: 'phone', label: 'Phone' },
];

/** Corrects the delivery address until the parcel ships; the country stays, the old address goes into the history. */
export function AddressForm({ order }: { order: Order }) {
  const a = order.shipping_address;
  const [open, setOpen] = useState(false);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<AddressInput>({
    resolver: zodResolver(addressSchema),
    defaultValues: {
      addressLine1: a.addressLine1 ?? a.line1 ?? '',
      addressLine2: a.addressLine2 ?? a.line2 ?? '',
      city: a.city ?? '',
      state: a.state ?? '',
      postalCode: a.postalCode ?? a.postal_code ?? '',
      phone: a.phone ?? '',
    },
  });
  const refresh = useRefresh();
  if (!open) {
    return (
      <button type="button" className="btn-secondary" onClick={() => setOpen(true)}>
        Edit delivery address
      </button>
    );
  }
  const save = async (address: AddressInput) => {
    // The server's sentence: it says too when the shipping platform still has, or printed, the old address.
    try {
      const message = await changeAddress(order.id, address);
      toast({ title: message, ...(message.includes('old address') && { variant: 'error' as const }) });
    } catch (error) {
      toast({ title: error instanceof Error ? error.message : 'The change failed.', variant: 'error' });
    }
    await refresh(...ORDER_CHANGES);
  };
  return (
    <form onSubmit={handleSubmit(save)} noValidate className="rounded-2xl bg-white p-4 ring-1 ring-slate-200" aria-labelledby="address-heading">
      <h3 id="address-heading" className="text-lg font-bold">
        Edit delivery address
      </h3>
      <p className="text-sm text-slate-700">Country: {countryName(a.country)} (it set the shipping price, so it stays).</p>
      <div className="mt-3 grid gap-3 sm:grid-cols-2">
        {ADDRESS_FIELDS.map((field) => (
          <TextField key={field.key} id={`address-${field.key}`} label={field.label} maxLength={200} error={errors[field.key]?.message} {...register(field.key)} />
        ))}
      </div>
      <div className="mt-3 flex flex-wrap gap-2">
        <button type="submit" className="btn-primary">
          Save address
        </button>
        <button type="button" className="btn-secondary" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
