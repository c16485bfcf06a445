/**
 * /checkout: contact email, shipping address, delivery method, order summary, then 'Proceed to Payment',
 * which opens the payment page in a new tab. Totals shown here are a preview: the server recomputes them.
 * The address fields follow the country (what the post there calls them and needs); a problem is shown on
 * its field, which is focused; what was typed is kept for the tab's session; and this tab follows the
 * payment tab, to the confirmation or back to the form.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useEffectEvent, useRef, useState, type ChangeEvent } from 'react';
import { ALLOWED_COUNTRIES, COUNTRY_NAMES, LIMITS, STORAGE_KEYS } from '@/config/constants';
import { useAuth } from '@/features/account/use-auth';
import { $cartLines, $itemCount, $subtotal } from '@/features/cart/store';
import EmptyCart from '@/features/cart/EmptyCart';
import { errorId, FieldError, invalidProps, TextField } from '@/features/forms/fields';
import { formatPrice, formatPriceAud } from '@/lib/format';
import { toast } from '@/features/toast/store';
import { useHydrated } from '@/lib/use-hydrated';
import AddressAutocomplete from './AddressAutocomplete';
import { closeChangedPaymentPage, createCheckout, getPaymentConfig, lineProblemOf, RequestError, type AddressFields, type LineProblem, type PaymentConfig, type ShippingQuote } from './api';
import OrderSummary, { shippingPrice } from './OrderSummary';
import PaymentNotice from './PaymentNotice';
import { useDeliveryOptions } from './use-delivery-options';
import { usePromotionCode } from './use-promotion-code';
import PromotionCodeField from './PromotionCodeField';
import { codeAnswerSchema, discountLabel } from './promotion-code';
import { subtractDollars } from '@/lib/money';
import { emailSuggestion } from '@/lib/email-typos';
import { addressFormat, auStateOfPostcode } from './address-format';
import { clearDraft, readDraft, saveDraft } from './draft';
import { CANCELLED_PAYMENT_PATH, onPaymentNews } from './payment-tabs';
import { CHECKOUT_FIELDS, checkoutProblem, missingForProceed, type CheckoutField } from './validation';
import { NO_GIFT, type GiftChoice } from './gift';
import GiftFields from './GiftFields';
import { importChargesStatement } from './import-charges';
import { visitorCountry } from './visitor-country';

const EMPTY_ADDRESS: AddressFields = { fullName: '', phone: '', addressLine1: '', addressLine2: '', city: '', state: '', postalCode: '', country: 'AU' };

const fieldId = (field: CheckoutField) => `checkout-${field}`;

function focusField(field: CheckoutField) {
  const element = document.getElementById(fieldId(field));
  element?.scrollIntoView({ block: 'center', behavior: 'smooth' });
  element?.focus({ preventScroll: true });
}

/** Which field a server refusal is about, from the path it names (`shippingDetails.postalCode`). */
function fieldOfServerError(body: Record<string, unknown>): CheckoutField | null {
  const details = Array.isArray(body.details) ? (body.details as Array<{ path?: unknown }>) : [];
  const path = typeof details[0]?.path === 'string' ? details[0].path : '';
  const field = path === 'customerEmail' ? 'email' : path === 'gift.message' ? 'giftMessage' : path.replace(/^shippingDetails\./, '');
  return CHECKOUT_FIELDS.find((f) => f === field) ?? null;
}

/**
 * The payment page: open (made for the order as `made` describes it), closed because the order on screen changed
 * since (`problem` when that could not be done), or cancelled in its tab.
 */
type Payment = { status: 'idle' } | { status: 'open'; url: string; made: string } | { status: 'changed'; problem?: string } | { status: 'cancelled' };

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
  const [gift, setGift] = useState<GiftChoice>(NO_GIFT);
  const [reminderConsent, setReminderConsent] = useState(false);
  const code = usePromotionCode(lines, email);
  const delivery = useDeliveryOptions(address, lines, subtractDollars(subtotal, code.discount), hydrated, code.applied?.code);
  const [draftRead, setDraftRead] = useState(false);
  // Once the shopper picks a country (or a draft brings one back), the visitor's detected country no longer applies.
  const countryChosen = useRef(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [fieldError, setFieldError] = useState<{ field: CheckoutField; message: string } | null>(null);
  const [payments, setPayments] = useState<PaymentConfig | null>(null);
  const [payment, setPayment] = useState<Payment>({ status: 'idle' });
  /** Too few copies of a line, as Proceed was answered; the delivery quote may say so first. Shown beside the line only. */
  const [refusedLine, setRefusedLine] = useState<LineProblem | null>(null);
  const lineProblem = (delivery.state.status === 'ready' ? delivery.state.lineProblem : undefined) ?? refusedLine;
  const format = addressFormat(address.country);
  const price = format.labelCurrency ? formatPriceAud : formatPrice;
  const importCharges = importChargesStatement(address.country);
  const suggestion = emailSuggestion(email);
  const errorOf = (field: CheckoutField) => (fieldError?.field === field ? fieldError.message : undefined);

  useEffect(() => {
    getPaymentConfig().then(setPayments, (e: Error) => setPayments({ mode: 'unavailable', message: e.message }));
  }, []);
  // A signed-in shopper's email fills the field when it is empty; what they type over it stays theirs.
  const signedInEmail = auth.user?.email;
  useEffect(() => {
    if (signedInEmail) setEmail((typed) => typed || signedInEmail);
  }, [signedInEmail]);
  // What the shopper typed earlier in this tab comes back once the page is live (the pre-rendered form is empty).
  const restoreDraft = useEffectEvent(() => {
    const draft = readDraft();
    if (draft?.email) setEmail(draft.email);
    if (draft?.address) {
      countryChosen.current = true;
      setAddress({ ...EMPTY_ADDRESS, ...draft.address });
    } else {
      // A new checkout starts on the country the shop sees the visitor in, when it ships there.
      visitorCountry().then((country) => {
        if (country && !countryChosen.current) setAddress((a) => ({ ...a, country, state: a.country === country ? a.state : '' }));
      });
    }
    if (draft?.methodId) delivery.choose(draft.methodId);
    if (draft?.gift) setGift({ ...NO_GIFT, ...draft.gift });
    if (typeof draft?.reminderConsent === 'boolean') setReminderConsent(draft.reminderConsent);
    setDraftRead(true);
  });
  useEffect(() => {
    if (hydrated) restoreDraft();
  }, [hydrated]);
  useEffect(() => {
    if (draftRead) saveDraft({ email, address, methodId: delivery.method?.id ?? null, gift, reminderConsent });
  }, [draftRead, email, address, delivery.method?.id, gift, reminderConsent]);
  // The payment tab's news: paid shows the confirmation here too; cancelled gives the form back.
  useEffect(
    () =>
      onPaymentNews((news) => {
        if (news.type === 'paid') {
          clearDraft();
          window.location.assign(`/order-confirmation?session_id=${encodeURIComponent(news.sessionId)}`);
        } else setPayment({ status: 'cancelled' });
      }),
    [],
  );
  // A problem marked on a field is scrolled to and focused, so the shopper sees it where they type.
  useEffect(() => {
    if (fieldError) focusField(fieldError.field);
  }, [fieldError]);

  // What a payment page is made for: when any of it changes while one is open, that page is closed at once, so it
  // cannot take a payment for an order that is no longer the one on screen.
  const ordered = JSON.stringify([lines.map((l) => [l.product.id, l.quantity]), email.trim(), address, delivery.method?.id ?? null, gift, reminderConsent, code.applied?.code ?? null]);
  useEffect(() => {
    if (payment.status !== 'open' || payment.made === ordered) return;
    setPayment({ status: 'changed' });
    closeChangedPaymentPage().catch((error: unknown) => setPayment({ status: 'changed', problem: error instanceof Error ? error.message : String(error) }));
  }, [ordered, payment]);

  const missing = missingForProceed(email, address, gift.isGift);
  /** Takes the shopper to a field Proceed waits for. */
  /** Changes one address field; a changed postcode in Australia fills in its state, unless one was chosen. */
  function change(name: keyof AddressFields, value: string) {
    if (fieldError?.field === name) setFieldError(null);
    if (name === 'country') countryChosen.current = true;
    setAddress((a) => {
      const next = { ...a, [name]: value };
      if (name === 'country') next.state = '';
      if (name === 'postalCode' && next.country === 'AU') {
        const derived = auStateOfPostcode(value);
        const previous = auStateOfPostcode(a.postalCode);
        if (derived && (!a.state || a.state === previous)) next.state = derived;
      }
      return next;
    });
  }

  /** The props every address field shares: its id, its value in the address, and read-only until hydrated. */
  const field = (name: keyof AddressFields, maxLength: number = LIMITS.addressFieldMaxLength) => ({
    id: `checkout-${name}`,
    value: address[name],
    onChange: (e: ChangeEvent<HTMLInputElement>) => change(name, e.target.value),
    readOnly: !hydrated,
    maxLength,
    error: name === 'addressLine2' ? undefined : errorOf(name),
  });

  async function proceed(event: React.SubmitEvent) {
    event.preventDefault();
    const method = delivery.method;
    const issue = checkoutProblem({ itemCount, email, address, methodId: method?.id ?? null, gift });
    setProblem(issue && !issue.field ? issue.message : null);
    setFieldError(issue?.field ? { field: issue.field, message: issue.message } : null);
    if (issue || !method) {
      if (issue) toast({ title: issue.message, variant: 'error' });
      return;
    }
    setBusy(true);
    // Opened now, while the click still counts as the shopper's, so no pop-up blocker stops it.
    const tab = window.open('', '_blank');
    try {
      const session = await createCheckout({ lines, email: email.trim(), address, method, cancelPath: CANCELLED_PAYMENT_PATH, gift, reminderConsent, promotionCode: code.applied?.code });
      if (!session.url) throw new Error('No checkout URL returned');
      localStorage.setItem(STORAGE_KEYS.checkoutSessionId, session.sessionId);
      if (tab) {
        tab.location.href = session.url;
        setPayment({ status: 'open', url: session.url, made: ordered });
      } else window.location.assign(session.url);
    } catch (error) {
      tab?.close();
      // Too few copies of a line: said once, beside the line, where its quantity can be lowered.
      const line = lineProblemOf(error);
      if (line) {
        setRefusedLine(line);
        return;
      }
      // The delivery options changed since they were shown: offer the current ones again.
      // The code can no longer be honoured (other orders took or hold its last uses): it comes off, with the reason.
      const refusedCode = error instanceof RequestError ? codeAnswerSchema.safeParse(error.body.promotionCode) : null;
      if (refusedCode?.success) code.refused(refusedCode.data);
      if (error instanceof RequestError && Array.isArray(error.body.quotes)) {
        delivery.offerAgain(error.body.quotes as ShippingQuote[], typeof error.body.message === 'string' ? error.body.message : undefined);
      }
      const message = error instanceof Error && error.message ? error.message : 'Failed to proceed to payment';
      const field = error instanceof RequestError ? fieldOfServerError(error.body) : null;
      const shown = message.replace(/^[\w.]+: /, '');
      if (field) setFieldError({ field, message: shown });
      else setProblem(message);
      toast({ title: 'Failed to create checkout', description: shown, variant: 'error' });
    } finally {
      setBusy(false);
    }
  }

  // Nothing to buy: the cart's own empty state, not a form that objects only when sent.
  if (hydrated && itemCount === 0) return <EmptyCart />;

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
            onChange={(e) => {
              setEmail(e.target.value);
              if (fieldError?.field === 'email') setFieldError(null);
            }}
            maxLength={LIMITS.emailMaxLength}
            readOnly={!hydrated}
            error={errorOf('email')}
            aria-describedby={[errorOf('email') && errorId(fieldId('email')), suggestion && `${fieldId('email')}-suggestion`].filter(Boolean).join(' ') || undefined}
          />
          {suggestion && (
            <p id={`${fieldId('email')}-suggestion`} className="-mt-2 flex flex-wrap items-center gap-x-2 text-sm text-slate-700">
              <span>Did you mean {suggestion}?</span>
              <button
                type="button"
                className="font-semibold text-navy underline"
                onClick={() => {
                  setEmail(suggestion);
                  if (fieldError?.field === 'email') setFieldError(null);
                }}
              >
                Use {suggestion}
              </button>
            </p>
          )}
          <label className="flex cursor-pointer items-start gap-3">
            <input type="checkbox" className="mt-1 h-5 w-5 shrink-0" checked={reminderConsent} disabled={!hydrated} onChange={(e) => setReminderConsent(e.target.checked)} />
            <span>Send me one reminder about this order if I leave the payment page without paying</span>
          </label>
        </fieldset>
        <GiftFields
          gift={gift}
          readOnly={!hydrated}
          error={errorOf('giftMessage')}
          onChange={(next) => {
            if (fieldError?.field === 'giftMessage' || (fieldError?.field === 'fullName' && !next.isGift)) setFieldError(null);
            setGift(next);
          }}
        />
        <fieldset className="space-y-4 rounded-2xl bg-white p-6 ring-1 ring-slate-200">
          <legend className="px-2 font-display text-xl font-bold text-navy">Shipping address</legend>
          <div>
            <label htmlFor="checkout-country" className="label">
              Country
            </label>
            <select id="checkout-country" className="field" autoComplete="country" disabled={!hydrated} value={address.country} onChange={(e) => change('country', e.target.value)}>
              {ALLOWED_COUNTRIES.map((code) => (
                <option key={code} value={code}>
                  {COUNTRY_NAMES[code]}
                </option>
              ))}
            </select>
          </div>
          {gift.isGift ? (
            <>
              <TextField label="Recipient's full name" autoComplete="off" required {...field('fullName', LIMITS.nameMaxLength)} />
              <p className="-mt-2 text-sm text-slate-600">For the parcel's label: the person the gift goes to.</p>
            </>
          ) : (
            <>
              <TextField label="Full name" autoComplete="name" optional {...field('fullName', LIMITS.nameMaxLength)} />
              <p className="-mt-2 text-sm text-slate-600">For the parcel's label. Left blank, we use the name on the card.</p>
            </>
          )}
          <AddressAutocomplete
            readOnly={!hydrated}
            value={address.addressLine1}
            country={address.country}
            id={fieldId('addressLine1')}
            error={errorOf('addressLine1')}
            onChange={(value) => change('addressLine1', value)}
            onSelect={(a) => {
              countryChosen.current = true;
              setAddress((prev) => ({ ...prev, addressLine1: a.line1, addressLine2: a.line2, city: a.city, state: a.state, postalCode: a.postal_code, country: a.country || prev.country }));
            }}
          />
          <TextField label="Address line 2" autoComplete="address-line2" optional {...field('addressLine2')} />
          <div className="grid gap-4 sm:grid-cols-3">
            <TextField label={format.city} autoComplete="address-level2" required {...field('city')} />
            {format.region.options ? (
              <div>
                <label htmlFor={fieldId('state')} className="label">
                  {format.region.label}
                </label>
                <select
                  id={fieldId('state')}
                  className="field"
                  autoComplete="address-level1"
                  disabled={!hydrated}
                  value={address.state}
                  onChange={(e) => change('state', e.target.value)}
                  {...invalidProps(fieldId('state'), errorOf('state'))}
                >
                  <option value="">Select…</option>
                  {format.region.options.map((code) => (
                    <option key={code} value={code}>
                      {code}
                    </option>
                  ))}
                </select>
                <FieldError fieldId={fieldId('state')} message={errorOf('state')} />
              </div>
            ) : (
              <TextField label={format.region.label} autoComplete="address-level1" optional={!format.region.required} required={format.region.required} {...field('state')} />
            )}
            <TextField label={format.postal.label} autoComplete="postal-code" optional={!format.postal.required} required={format.postal.required} {...field('postalCode', 20)} />
          </div>
          <TextField label="Phone" type="tel" autoComplete="tel" optional {...field('phone', 40)} />
          {address.country !== 'AU' && <p className="-mt-2 text-sm text-slate-600">The carrier abroad may call if they cannot deliver.</p>}
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
              <span className="font-semibold">{shippingPrice(q.price, price)}</span>
            </label>
          ))}
          {importCharges && (
            <p className="text-sm text-slate-700" data-testid="import-charges">
              {importCharges}
            </p>
          )}
        </fieldset>
      </div>
      <aside className="h-fit space-y-4 rounded-2xl bg-white p-6 ring-1 ring-slate-200" aria-labelledby="order-summary-heading">
        <OrderSummary
          lines={lines}
          subtotal={subtotal}
          discount={code.applied && { label: discountLabel(code.applied), amount: code.discount }}
          method={delivery.method}
          format={price}
          lineProblem={lineProblem}
          editable={hydrated}
        />
        <PromotionCodeField code={code} disabled={!hydrated} />
        {format.labelCurrency && <p className="text-sm text-slate-700">Prices are in Australian dollars (AUD); your card provider converts them.</p>}
        {payment.status === 'open' && (
          <p role="status" className="rounded-lg bg-sky/60 p-3 text-sm font-semibold text-navy">
            The payment page is open in another tab. Finish paying there; this page will show your confirmation.{' '}
            <a href={payment.url} target="_blank" rel="noopener" className="underline">
              Open the payment page again
            </a>
          </p>
        )}
        {payment.status === 'changed' && (
          <p role="status" className="rounded-lg bg-amber-50 p-3 text-sm font-semibold text-amber-950">
            {payment.problem ?? 'Your order changed, so the payment page opened before is closed and cannot take a payment. Press Proceed to Payment to pay for the order as it is now.'}
          </p>
        )}
        {payment.status === 'cancelled' && (
          <p role="status" className="rounded-lg bg-amber-50 p-3 text-sm font-semibold text-amber-950">
            Payment cancelled in the other tab. Nothing was charged; you can change anything here and try again.
          </p>
        )}
        {problem && (
          <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm font-semibold text-red-900">
            {problem}
          </p>
        )}
        <button
          type="submit"
          className="btn-primary w-full py-3"
          disabled={busy || delivery.state.status === 'loading' || missing.length > 0}
          aria-describedby={missing.length > 0 ? 'proceed-missing' : undefined}
        >
          {busy ? 'Processing...' : 'Proceed to Payment'}
        </button>
        {/* Says what the disabled button waits for, each a way to its field; read out as it changes. */}
        <p id="proceed-missing" aria-live="polite" className="text-center text-sm text-slate-800">
          {hydrated && missing.length > 0 && (
            <>
              Add your{' '}
              {missing.map((m, i) => (
                <span key={m.field}>
                  {i > 0 && (i === missing.length - 1 ? ' and ' : ', ')}
                  <button type="button" className="font-semibold text-navy underline underline-offset-2" onClick={() => focusField(m.field)}>
                    {m.name}
                  </button>
                </span>
              ))}{' '}
              to continue
            </>
          )}
        </p>
        <p className="text-center text-sm text-slate-600">The secure payment page opens in a new tab.</p>
        {/* Below the button, so its late arrival (after the payment-config call) moves nothing. */}
        <PaymentNotice payments={payments} />
      </aside>
    </form>
  );
}
