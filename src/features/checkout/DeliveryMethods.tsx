/**
 * The checkout's delivery options for the address, with their prices (free where the rule makes them so), and
 * what import charges abroad are the buyer's. The options and the choice are `useDeliveryOptions`'.
 */
import { shippingPrice } from './OrderSummary';
import type { useDeliveryOptions } from './use-delivery-options';

export default function DeliveryMethods({ delivery, price, importCharges }: { delivery: ReturnType<typeof useDeliveryOptions>; price: (amount: number) => string; importCharges: string | undefined }) {
  return (
    <fieldset className="space-y-3 rounded-2xl bg-white p-6 ring-1 ring-slate-200">
      <legend className="px-2 font-display text-xl font-bold text-navy">Delivery method</legend>
      {delivery.state.status === 'idle' && <p className="text-slate-700">Enter your address to see delivery options.</p>}
      {delivery.state.status === 'loading' && (
        <p className="text-slate-700" role="status">
          Finding delivery options...
        </p>
      )}
      {delivery.state.status === 'ready' && delivery.state.message && (
        <p className="text-amber-900" role="status">
          {delivery.state.message} Our standard rate applies; we will confirm the actual cost if it differs.
        </p>
      )}
      {delivery.options.map((q) => (
        <label key={q.id} className="flex cursor-pointer items-center justify-between gap-4 rounded-xl border border-slate-300 p-4 has-[:checked]:border-navy has-[:checked]:bg-sky/40">
          <span className="flex items-center gap-3">
            <input type="radio" name="shipping-method" value={q.id} checked={delivery.method?.id === q.id} onChange={() => delivery.choose(q.id)} className="h-4 w-4" />
            <span>
              <span className="block font-semibold">{q.plan_name}</span>
              <span className="block text-sm text-slate-600">
                {q.carrier} · {q.eta.days_range}
              </span>
            </span>
          </span>
          <span className="font-semibold">{shippingPrice(q.price, price)}</span>
        </label>
      ))}
      {importCharges && (
        <p className="text-sm text-slate-700" data-testid="import-charges">
          {importCharges}
        </p>
      )}
    </fieldset>
  );
}
