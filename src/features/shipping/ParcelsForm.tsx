/**
 * Several parcels at once, from To pack: print the chosen orders' slips together, and mark them shipped with a
 * tracking number each in one form. Every number is checked as the single-order form checks it, and each order
 * is shipped (and its customer emailed) through the same server action, one after another.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { ActionButton } from '@/features/forms/fields';
import { type OrderListItem, runOrderAction } from '@/features/admin/orders-api';
import { parcelsForm, type ParcelsFormValues, shipmentOf } from '@/features/staff-actions/order-actions';
import { orderNumber } from '@/lib/format';
import { CarrierFields } from './CarrierFields';

type Outcome = { id: string; ok: boolean; message: string };

export function ParcelsForm({ orders, onDone }: { orders: OrderListItem[]; onDone: () => void }) {
  const {
    register,
    handleSubmit,
    watch,
    formState: { errors, isSubmitting: busy },
  } = useForm<ParcelsFormValues>({
    resolver: zodResolver(parcelsForm),
    defaultValues: { carrier: 'auspost', carrierName: '', numbers: Object.fromEntries(orders.map((order) => [order.id, ''])) },
  });
  const [outcomes, setOutcomes] = useState<Outcome[]>([]);

  async function ship(typed: ParcelsFormValues) {
    const results: Outcome[] = [];
    for (const order of orders) {
      try {
        results.push({ id: order.id, ok: true, message: await runOrderAction({ action: 'ship', orderId: order.id, shipment: shipmentOf(typed, typed.numbers[order.id] ?? '') }) });
      } catch (error) {
        results.push({ id: order.id, ok: false, message: error instanceof Error ? error.message : 'The shipment failed.' });
      }
      setOutcomes([...results]);
    }
    onDone();
  }

  const invalid = Object.keys(errors.numbers ?? {}).length > 0;
  return (
    <form onSubmit={handleSubmit(ship)} noValidate aria-labelledby="parcels-heading" aria-busy={busy} className="mt-4 rounded-2xl bg-white p-4 ring-1 ring-slate-200">
      <h3 id="parcels-heading" className="text-lg font-bold">
        Ship {orders.length === 1 ? '1 order' : `${orders.length} orders`}
      </h3>
      <div className="mt-3 flex flex-wrap gap-3">
        <CarrierFields id="parcels-carrier" carrier={register('carrier')} carrierName={register('carrierName')} other={watch('carrier') === 'other'} nameError={errors.carrierName?.message} />
      </div>
      <ul className="mt-3 space-y-3">
        {orders.map((order) => {
          const number = orderNumber(order.number);
          const error = errors.numbers?.[order.id]?.message;
          const outcome = outcomes.find((o) => o.id === order.id);
          return (
            <li key={order.id}>
              <label htmlFor={`parcel-${order.id}`} className="label">
                Tracking number for order {number}
                {/* The name on the parcel's label, so the packer matches number to parcel. */}
                <span className="font-normal"> — {order.customer_name}</span>
              </label>
              <input
                id={`parcel-${order.id}`}
                className="field font-mono"
                maxLength={64}
                {...register(`numbers.${order.id}`)}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `parcel-error-${order.id}` : undefined}
              />
              {error && (
                <p id={`parcel-error-${order.id}`} className="mt-1 text-sm font-semibold text-red-800">
                  {error}
                </p>
              )}
              {outcome && <p className={`mt-1 text-sm ${outcome.ok ? 'text-green-900' : 'font-semibold text-red-800'}`}>{outcome.message}</p>}
            </li>
          );
        })}
      </ul>
      {invalid && (
        <p role="alert" className="mt-2 text-sm font-semibold text-red-800">
          Nothing was shipped: correct the tracking numbers marked above.
        </p>
      )}
      <ActionButton type="submit" className="btn-primary mt-3" busy={busy}>
        Confirm shipments
      </ActionButton>
      {outcomes.length === orders.length && outcomes.length > 0 && (
        <p role="status" className="mt-2 font-semibold">
          {outcomes.filter((o) => o.ok).length} of {orders.length} shipped; each customer has been emailed their tracking number.
        </p>
      )}
    </form>
  );
}
