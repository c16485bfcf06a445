/**
 * /checkout: contact email, shipping address, delivery method, order summary, then 'Proceed to Payment',
 * which opens the payment page in a new tab. Totals shown here are a preview: the server recomputes them.
 */
import { useAuth } from '@/features/account/use-auth';
import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { ALLOWED_COUNTRIES, LIMITS, STORAGE_KEYS, TIMINGS } from '@/config/constants';
import { formatPrice } from '@/lib/format';
import { useDebounced } from '@/lib/use-debounced';
import { useHydrated } from '@/lib/use-hydrated';
import { $cartLines, $itemCount, $subtotal } from '@/features/cart/store';
import { toast } from '@/features/toast/store';
import { applyFreeShipping, CHECKOUT_MESSAGES, fallbackQuotes } from './contract';
import CartLineList from '@/features/cart/CartLineList';
import AddressAutocomplete from './AddressAutocomplete';
import { createCheckout, fetchQuotes, getPaymentConfig, RequestError, type AddressFields, type PaymentConfig, type ShippingQuote } from './api';
import { canProceed, checkoutProblem, wantsLiveQuotes } from './validation';

const COUNTRY_NAMES: Record<(typeof ALLOWED_COUNTRIES)[number], string> = {
  AU: 'Australia',
  US: 'United States',
  GB: 'United Kingdom',
  CA: 'Canada',
  NZ: 'New Zealand',
  IE: 'Ireland',
};

const EMPTY_ADDRESS: AddressFields = { fullName: '', phone: '', addressLine1: '', addressLine2: '', city: '', state: '', postalCode: '', country: 'AU' };

type Quotes = { status: 'idle' | 'loading' } | { status: 'ready'; quotes: ShippingQuote[]; message?: string };

function Field(props: {
  id: keyof AddressFields | 'email';
  label: string;
  value: string;
  onChange: (v: string) => void;
  autoComplete: string;
  required?: boolean;
  type?: string;
  maxLength?: number;
  readOnly?: boolean;
}) {
  return (
    <div>
      <label htmlFor={`checkout-${props.id}`} className="label">
        {props.label}
        {!props.required && <span className="font-normal text-slate-600"> (optional)</span>}
      </label>
      <input
        id={`checkout-${props.id}`}
        className="field"
        type={props.type ?? 'text'}
        autoComplete={props.autoComplete}
        required={props.required}
        maxLength={props.maxLength ?? LIMITS.addressFieldMaxLength}
        value={props.value}
        readOnly={props.readOnly}
        onChange={(e) => props.onChange(e.target.value)}
      />
    </div>
  );
}

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
  const [quotes, setQuotes] = useState<Quotes>({ status: 'idle' });
  const [methodId, setMethodId] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [payments, setPayments] = useState<PaymentConfig | null>(null);
  const set = (field: keyof AddressFields) => (value: string) => setAddress((a) => ({ ...a, [field]: value }));

  useEffect(() => {
    getPaymentConfig().then(setPayments, (e: Error) => setPayments({ mode: 'unavailable', message: e.message }));
  }, []);
  useEffect(() => {
    if (auth.user?.email && !email) setEmail(auth.user.email);
  }, [auth.user?.email]);

  // Quotes follow the address (500 ms after it settles) and the cart; only full AU addresses ask the carrier.
  const settled = useDebounced(address, TIMINGS.shippingQuoteDebounceMs);
  // A changed address makes the shown options stale at once, so no old choice is paid for.
  useEffect(() => {
    if (address.country === 'AU' && wantsLiveQuotes(address)) setQuotes({ status: 'loading' });
  }, [address.addressLine1, address.city, address.state, address.postalCode, address.country]);
  const cartKey = lines.map((l) => `${l.product.id}:${l.quantity}`).join(',');
  useEffect(() => {
    if (!hydrated || lines.length === 0) return setQuotes({ status: 'idle' });
    if (settled.country !== 'AU') {
      const country = settled.country as (typeof ALLOWED_COUNTRIES)[number];
      return setQuotes({ status: 'ready', quotes: applyFreeShipping(fallbackQuotes(country), { country, subtotal }) });
    }
    if (!wantsLiveQuotes(settled)) return setQuotes({ status: 'idle' });
    let current = true;
    setQuotes({ status: 'loading' });
    fetchQuotes(settled, lines).then(
      (r) => current && setQuotes({ status: 'ready', quotes: r.quotes, message: r.fallback ? r.message : undefined }),
      (error: Error) =>
        current && setQuotes({ status: 'ready', quotes: applyFreeShipping(fallbackQuotes('AU'), { country: 'AU', subtotal }), message: error.message || CHECKOUT_MESSAGES.ratesFailed }),
    );
    return () => {
      current = false;
    };
  }, [hydrated, settled, cartKey]);

  const options = quotes.status === 'ready' ? quotes.quotes : [];
  useEffect(() => {
    if (!options.some((q) => q.id === methodId)) setMethodId(options.length === 1 ? options[0]!.id : null);
  }, [options.map((q) => q.id).join()]);
  const method = options.find((q) => q.id === methodId) ?? null;

  async function proceed(event: React.FormEvent) {
    event.preventDefault();
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
        setQuotes({ status: 'ready', quotes: error.body.quotes as ShippingQuote[], message: typeof error.body.message === 'string' ? error.body.message : undefined });
      }
      const message = error instanceof Error && error.message ? error.message : 'Failed to proceed to payment';
      setProblem(message);
      toast({ title: 'Failed to create checkout', description: message, variant: 'error' });
    } finally {
      setBusy(false);
    }
  }

  const shippingCost = method?.price ?? 0;
  return (
    <form className="grid gap-10 lg:grid-cols-[1fr_380px]" onSubmit={proceed} noValidate>
      <div className="space-y-8">
        <fieldset className="space-y-4 rounded-2xl bg-white p-6 ring-1 ring-slate-200">
          <legend className="px-2 font-display text-xl font-bold text-navy">Contact</legend>
          <Field id="email" label="Email" type="email" autoComplete="email" required value={email} onChange={setEmail} maxLength={LIMITS.emailMaxLength} readOnly={!hydrated} />
        </fieldset>
        <fieldset className="space-y-4 rounded-2xl bg-white p-6 ring-1 ring-slate-200">
          <legend className="px-2 font-display text-xl font-bold text-navy">Shipping address</legend>
          <div>
            <label htmlFor="checkout-country" className="label">
              Country
            </label>
            <select id="checkout-country" className="field" autoComplete="country" disabled={!hydrated} value={address.country} onChange={(e) => set('country')(e.target.value)}>
              {ALLOWED_COUNTRIES.map((code) => (
                <option key={code} value={code}>
                  {COUNTRY_NAMES[code]}
                </option>
              ))}
            </select>
          </div>
          <Field id="fullName" label="Full name" autoComplete="name" value={address.fullName} onChange={set('fullName')} maxLength={LIMITS.nameMaxLength} readOnly={!hydrated} />
          <AddressAutocomplete
            readOnly={!hydrated}
            value={address.addressLine1}
            country={address.country}
            onChange={set('addressLine1')}
            onSelect={(a) =>
              setAddress((prev) => ({ ...prev, addressLine1: a.line1, addressLine2: a.line2, city: a.city, state: a.state, postalCode: a.postal_code, country: a.country || prev.country }))
            }
          />
          <Field id="addressLine2" label="Address line 2" autoComplete="address-line2" value={address.addressLine2} onChange={set('addressLine2')} readOnly={!hydrated} />
          <div className="grid gap-4 sm:grid-cols-3">
            <Field id="city" label="City / suburb" autoComplete="address-level2" required value={address.city} onChange={set('city')} readOnly={!hydrated} />
            <Field id="state" label="State" autoComplete="address-level1" value={address.state} onChange={set('state')} readOnly={!hydrated} />
            <Field id="postalCode" label="Postcode" autoComplete="postal-code" required value={address.postalCode} onChange={set('postalCode')} maxLength={20} readOnly={!hydrated} />
          </div>
          <Field id="phone" label="Phone" type="tel" autoComplete="tel" value={address.phone} onChange={set('phone')} maxLength={40} readOnly={!hydrated} />
        </fieldset>
        <fieldset className="space-y-3 rounded-2xl bg-white p-6 ring-1 ring-slate-200">
          <legend className="px-2 font-display text-xl font-bold text-navy">Delivery method</legend>
          {quotes.status === 'idle' && <p className="text-slate-700">Enter your address to see delivery options.</p>}
          {quotes.status === 'loading' && (
            <p className="text-slate-700" role="status">
              Finding delivery options...
            </p>
          )}
          {quotes.status === 'ready' && quotes.message && (
            <p className="text-amber-900" role="status">
              {quotes.message} Our standard rate applies; we will confirm the actual cost if it differs.
            </p>
          )}
          {options.map((q) => (
            <label key={q.id} className="flex cursor-pointer items-center justify-between gap-4 rounded-xl border border-slate-300 p-4 has-[:checked]:border-navy has-[:checked]:bg-sky/40">
              <span className="flex items-center gap-3">
                <input type="radio" name="shipping-method" value={q.id} checked={methodId === q.id} onChange={() => setMethodId(q.id)} className="h-4 w-4" />
                <span>
                  <span className="block font-semibold">{q.plan_name}</span>
                  <span className="block text-sm text-slate-600">
                    {q.carrier} · {q.eta.days_range}
                  </span>
                </span>
              </span>
              <span className="font-semibold">{q.price === 0 ? 'Free' : formatPrice(q.price)}</span>
            </label>
          ))}
        </fieldset>
      </div>
      <aside className="h-fit space-y-4 rounded-2xl bg-white p-6 ring-1 ring-slate-200" aria-labelledby="order-summary-heading">
        <h2 id="order-summary-heading" className="text-xl font-bold">
          Order Summary
        </h2>
        <CartLineList lines={lines} className="space-y-3" />
        {/* In the summary, not above the form: appearing after hydration, it then moves nothing. */}
        {hydrated && itemCount === 0 && (
          <p>
            Your cart is empty.{' '}
            <a href="/store" className="font-semibold text-navy underline">
              Browse our store
            </a>
          </p>
        )}
        <dl className="space-y-2 border-t border-slate-200 pt-4">
          <div className="flex justify-between">
            <dt>Subtotal</dt>
            <dd>{formatPrice(subtotal)}</dd>
          </div>
          <div className="flex justify-between">
            <dt>Shipping</dt>
            <dd>{method ? (method.price === 0 ? 'Free' : formatPrice(method.price)) : '—'}</dd>
          </div>
          <div className="flex justify-between border-t border-slate-200 pt-2 text-lg font-bold text-navy">
            <dt>Total</dt>
            <dd>{formatPrice(subtotal + shippingCost)}</dd>
          </div>
        </dl>
        {problem && (
          <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm font-semibold text-red-900">
            {problem}
          </p>
        )}
        <button type="submit" className="btn-primary w-full py-3" disabled={busy || !canProceed(email, address)}>
          {busy ? 'Processing...' : 'Proceed to Payment'}
        </button>
        <p className="text-center text-sm text-slate-600">The secure payment page opens in a new tab.</p>
        {/* Below the button, so their late arrival (after the payment-config call) moves nothing. */}
        {payments?.mode === 'stripe' && !payments.publishableKey && (
          <p role="alert" className="rounded-xl border border-red-700 bg-red-50 p-4 font-semibold text-red-900">
            Payments are not configured: the payment provider's publishable key is missing. Please contact us to complete your order.
          </p>
        )}
        {payments?.mode === 'unavailable' && (
          <p role="alert" className="rounded-xl border border-red-700 bg-red-50 p-4 font-semibold text-red-900">
            {payments.message}
          </p>
        )}
        {payments?.mode === 'local-test' && (
          <p className="rounded-xl border border-amber-700 bg-amber-50 p-4 text-sm text-amber-950">
            <strong>Test mode.</strong> This shop is running locally: payment opens a TEST page and no real money moves.
          </p>
        )}
      </aside>
    </form>
  );
}
