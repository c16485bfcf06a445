/**
 * /checkout: contact email, shipping address, delivery method, order summary, then 'Proceed to Payment',
 * which opens the payment page in a new tab. Totals shown here are a preview: the server recomputes them.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useState, type ChangeEvent } from 'react';
import { ALLOWED_COUNTRIES, COUNTRY_NAMES, LIMITS, STORAGE_KEYS } from '@/config/constants';
import { useAuth } from '@/features/account/use-auth';
import { $cartLines, $itemCount, $subtotal } from '@/features/cart/store';
import { TextField } from '@/features/forms/fields';
import { toast } from '@/features/toast/store';
import { useHydrated } from '@/lib/use-hydrated';
import AddressAutocomplete from './AddressAutocomplete';
import { createCheckout, getPaymentConfig, RequestError, type AddressFields, type PaymentConfig, type ShippingQuote } from './api';
import OrderSummary, { shippingPrice } from './OrderSummary';
import PaymentNotice from './PaymentNotice';
import { useDeliveryOptions } from './use-delivery-options';
import { canProceed, checkoutProblem } from './validation';

const EMPTY_ADDRESS: AddressFields = { fullName: '', phone: '', addressLine1: '', addressLine2: '', city: '', state: '', postalCode: '', country: 'AU' };

export default function CheckoutPage() {
  // The form is pre-rendered (it is the page's main content); the saved cart exists only in the browser,
  // so until hydration the summary is empty and the fields wait (typing would be lost at hydration).
  const hydrated = useHydrated();
  const savedLines = useStore($cartLines);
  const lines = hydrated ? savedLines : [];
  const subtotal = useStore($subtotal) * Number(hydrated);
  const itemCount = useStore($itemCount) * Number(hydrated);
  const auth = useAuth();
  const [email, setEmail] = useState('');
  const [address, setAddress] = useState<AddressFields>(EMPTY_ADDRESS);
  const delivery = useDeliveryOptions(address, lines, subtotal, hydrated);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [payments, setPayments] = useState<PaymentConfig | null>(null);

  useEffect(() => {
    getPaymentConfig().then(setPayments, (e: Error) => setPayments({ mode: 'unavailable', message: e.message }));
  }, []);
  useEffect(() => {
    if (auth.user?.email && !email) setEmail(auth.user.email);
  }, [auth.user?.email]);

  /** The props every address field shares: its id, its value in the address, and read-only until hydrated. */
  const field = (name: keyof AddressFields, maxLength: number = LIMITS.addressFieldMaxLength) => ({
    id: `checkout-${name}`,
    value: address[name],
    onChange: (e: ChangeEvent<HTMLInputElement>) => setAddress((a) => ({ ...a, [name]: e.target.value })),
    readOnly: !hydrated,
    maxLength,
  });

  async function proceed(event: React.FormEvent) {
    event.preventDefault();
    const method = delivery.method;
    const issue = checkoutProblem({ itemCount, email, address, methodId: method?.id ?? null });
    setProblem(issue);
    if (issue || !method) {
      if (issue) toast({ title: issue, variant: 'error' });
      return;
    }
    setBusy(true);
    // Opened now, while the click still counts as the shopper's, so no pop-up blocker stops it.
    const tab = window.open('', '_blank');
    try {
      const session = await createCheckout({ lines, email: email.trim(), address, method });
      if (!session.url) throw new Error('No checkout URL returned');
      localStorage.setItem(STORAGE_KEYS.checkoutSessionId, session.sessionId);
      if (tab) tab.location.href = session.url;
      else window.location.assign(session.url);
    } catch (error) {
      tab?.close();
      // The delivery options changed since they were shown: offer the current ones again.
      if (error instanceof RequestError && Array.isArray(error.body.quotes)) {
        delivery.offerAgain(error.body.quotes as ShippingQuote[], typeof error.body.message === 'string' ? error.body.message : undefined);
      }
      const message = error instanceof Error && error.message ? error.message : 'Failed to proceed to payment';
      setProblem(message);
      toast({ title: 'Failed to create checkout', description: message, variant: 'error' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="grid gap-10 lg:grid-cols-[1fr_380px]" onSubmit={proceed} noValidate>
      <div className="space-y-8">
        <fieldset className="space-y-4 rounded-2xl bg-white p-6 ring-1 ring-slate-200">
          <legend className="px-2 font-display text-xl font-bold text-navy">Contact</legend>
          <TextField
            id="checkout-email"
            label="Email"
            type="email"
            autoComplete="email"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            maxLength={LIMITS.emailMaxLength}
            readOnly={!hydrated}
          />
        </fieldset>
        <fieldset className="space-y-4 rounded-2xl bg-white p-6 ring-1 ring-slate-200">
          <legend className="px-2 font-display text-xl font-bold text-navy">Shipping address</legend>
          <div>
            <label htmlFor="checkout-country" className="label">
              Country
            </label>
            <select
              id="checkout-country"
              className="field"
              autoComplete="country"
              disabled={!hydrated}
              value={address.country}
              onChange={(e) => setAddress((a) => ({ ...a, country: e.target.value }))}
            >
              {ALLOWED_COUNTRIES.map((code) => (
                <option key={code} value={code}>
                  {COUNTRY_NAMES[code]}
                </option>
              ))}
            </select>
          </div>
          <TextField label="Full name" autoComplete="name" optional {...field('fullName', LIMITS.nameMaxLength)} />
          <AddressAutocomplete
            readOnly={!hydrated}
            value={address.addressLine1}
            country={address.country}
            onChange={(value) => setAddress((a) => ({ ...a, addressLine1: value }))}
            onSelect={(a) =>
              setAddress((prev) => ({ ...prev, addressLine1: a.line1, addressLine2: a.line2, city: a.city, state: a.state, postalCode: a.postal_code, country: a.country || prev.country }))
            }
          />
          <TextField label="Address line 2" autoComplete="address-line2" optional {...field('addressLine2')} />
          <div className="grid gap-4 sm:grid-cols-3">
            <TextField label="City / suburb" autoComplete="address-level2" required {...field('city')} />
            <TextField label="State" autoComplete="address-level1" optional {...field('state')} />
            <TextField label="Postcode" autoComplete="postal-code" required {...field('postalCode', 20)} />
          </div>
          <TextField label="Phone" type="tel" autoComplete="tel" optional {...field('phone', 40)} />
        </fieldset>
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
              <span className="font-semibold">{shippingPrice(q.price)}</span>
            </label>
          ))}
        </fieldset>
      </div>
      <aside className="h-fit space-y-4 rounded-2xl bg-white p-6 ring-1 ring-slate-200" aria-labelledby="order-summary-heading">
        <OrderSummary lines={lines} subtotal={subtotal} method={delivery.method} empty={hydrated && itemCount === 0} />
        {problem && (
          <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm font-semibold text-red-900">
            {problem}
          </p>
        )}
        <button type="submit" className="btn-primary w-full py-3" disabled={busy || !canProceed(email, address)}>
          {busy ? 'Processing...' : 'Proceed to Payment'}
        </button>
        <p className="text-center text-sm text-slate-600">The secure payment page opens in a new tab.</p>
        {/* Below the button, so its late arrival (after the payment-config call) moves nothing. */}
        <PaymentNotice payments={payments} />
      </aside>
    </form>
  );
}
