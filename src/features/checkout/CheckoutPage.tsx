/**
 * /checkout: contact email, shipping address, delivery method, order summary, then 'Proceed to Payment',
 * which opens the payment page in a new tab. Totals shown here are a preview: the server recomputes them.
 * The fields are one form (`use-checkout-form.ts`) checked with the request's own schemas; a problem is shown on
 * its field, which is focused; what was typed is kept for the tab's session; and this tab follows the payment
 * tab, to the confirmation or back to the form.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState } from 'react';
import { FormProvider, type FieldErrors } from 'react-hook-form';
import { STORAGE_KEYS } from '@/config/constants';
import { useAuth } from '@/features/account/use-auth';
import { $cartLines, $itemCount, $subtotal } from '@/features/cart/store';
import EmptyCart from '@/features/cart/EmptyCart';
import { formatPrice, formatPriceAud } from '@/lib/format';
import { subtractDollars } from '@/lib/money';
import { toast } from '@/features/toast/store';
import { useHydrated } from '@/lib/use-hydrated';
import AddressFieldset from './AddressFieldset';
import { addressFormat } from './address-format';
import { createCheckout, lineProblemOf, RequestError, type LineProblem, type ShippingQuote } from './api';
import ContactFieldset from './ContactFieldset';
import { CHECKOUT_MESSAGES } from './contract';
import DeliveryMethods from './DeliveryMethods';
import GiftFields from './GiftFields';
import { importChargesStatement } from './import-charges';
import type { CheckoutOrder } from './order-fields';
import OrderSummary from './OrderSummary';
import { CANCELLED_PAYMENT_PATH } from './payment-tabs';
import PaymentNotice from './PaymentNotice';
import PreorderNotice from '@/features/cart/PreorderNotice';
import ProceedControls from './ProceedControls';
import { codeAnswerSchema, discountLabel } from './promotion-code';
import PromotionCodeField from './PromotionCodeField';
import { useCheckoutDraft, useCheckoutForm, type CheckoutFormValues } from './use-checkout-form';
import { useDeliveryOptions } from './use-delivery-options';
import { usePaymentPage } from './use-payment-page';
import { usePromotionCode } from './use-promotion-code';
import { FIELD_PATHS, fieldId, fieldOfPath, firstProblem, missingForProceed, type CheckoutField } from './validation';

function focusField(field: CheckoutField) {
  const element = document.getElementById(fieldId(field));
  element?.scrollIntoView({ block: 'center', behavior: 'smooth' });
  element?.focus({ preventScroll: true });
}

/** Which field a server refusal is about, from the path it names (`shippingDetails.postalCode`). */
function fieldOfServerError(body: Record<string, unknown>): CheckoutField | null {
  const details = Array.isArray(body.details) ? (body.details as Array<{ path?: unknown }>) : [];
  return typeof details[0]?.path === 'string' ? fieldOfPath(details[0].path) : null;
}

/** A problem of the whole order, not of one field: shown above the button. */
const ORDER_PROBLEM = 'root.order';

export default function CheckoutPage() {
  // The form is pre-rendered (it is the page's main content); the saved cart exists only in the browser,
  // so until hydration the summary is empty and the fields wait (typing would be lost at hydration).
  const hydrated = useHydrated();
  const savedLines = useStore($cartLines);
  const lines = hydrated ? savedLines : [];
  const subtotal = useStore($subtotal) * Number(hydrated);
  const itemCount = useStore($itemCount) * Number(hydrated);
  const auth = useAuth();
  const checkout = useCheckoutForm(auth.user?.email);
  const { form, values, countryChosen } = checkout;
  const code = usePromotionCode(lines, values.customerEmail);
  const delivery = useDeliveryOptions(values.shippingDetails, lines, subtractDollars(subtotal, code.discount), hydrated, code.applied?.code);
  useCheckoutDraft(checkout, hydrated, { methodId: delivery.method?.id ?? null, choose: delivery.choose });
  /** Too few copies of a line, as Proceed was answered; the delivery quote may say so first. Shown beside the line only. */
  const [refusedLine, setRefusedLine] = useState<LineProblem | null>(null);
  const lineProblem = (delivery.state.status === 'ready' ? delivery.state.lineProblem : undefined) ?? refusedLine;
  const format = addressFormat(values.shippingDetails.country);
  const price = format.labelCurrency ? formatPriceAud : formatPrice;
  const { errors, isSubmitting } = form.formState;

  // What a payment page is made for: when any of it changes while one is open, that page is closed at once.
  const ordered = JSON.stringify([lines.map((l) => [l.product.id, l.quantity]), values, delivery.method?.id ?? null, code.applied?.code ?? null]);
  const { payment, opened } = usePaymentPage(ordered);

  // A problem marked on a field is scrolled to and focused once it is drawn, so the shopper sees it where they type.
  const focusNext = useRef<CheckoutField | null>(null);
  useEffect(() => {
    if (!focusNext.current) return;
    focusField(focusNext.current);
    focusNext.current = null;
  });

  function refused(problem: { field?: CheckoutField; message: string }) {
    if (problem.field) {
      form.setError(FIELD_PATHS[problem.field], { message: problem.message });
      focusNext.current = problem.field;
    } else form.setError(ORDER_PROBLEM, { message: problem.message });
  }

  function invalid(fieldErrors: FieldErrors<CheckoutFormValues>) {
    const problem = firstProblem(fieldErrors);
    if (!problem) return;
    focusNext.current = problem.field ?? null;
    toast({ title: problem.message, variant: 'error' });
  }

  async function proceed(order: CheckoutOrder) {
    const method = delivery.method;
    if (itemCount === 0 || !method) {
      const message = itemCount === 0 ? CHECKOUT_MESSAGES.emptyCart : CHECKOUT_MESSAGES.method;
      refused({ message });
      toast({ title: message, variant: 'error' });
      return;
    }
    const made = ordered;
    // Opened now, while the click still counts as the shopper's, so no pop-up blocker stops it.
    const tab = window.open('', '_blank');
    try {
      const { customerEmail, shippingDetails, gift, reminderConsent } = order;
      const session = await createCheckout({
        lines,
        email: customerEmail,
        address: shippingDetails,
        method,
        cancelPath: CANCELLED_PAYMENT_PATH,
        gift,
        reminderConsent,
        promotionCode: code.applied?.code,
      });
      if (!session.url) throw new Error('No checkout URL returned');
      localStorage.setItem(STORAGE_KEYS.checkoutSessionId, session.sessionId);
      if (tab) {
        tab.location.href = session.url;
        opened(session.url, made);
      } else window.location.assign(session.url);
    } catch (error) {
      tab?.close();
      // Too few copies of a line: said once, beside the line, where its quantity can be lowered.
      const line = lineProblemOf(error);
      if (line) {
        setRefusedLine(line);
        return;
      }
      // The code can no longer be honoured (other orders took or hold its last uses): it comes off, with the reason.
      const refusedCode = error instanceof RequestError ? codeAnswerSchema.safeParse(error.body.promotionCode) : null;
      if (refusedCode?.success) code.refused(refusedCode.data);
      // The delivery options changed since they were shown: offer the current ones again.
      if (error instanceof RequestError && Array.isArray(error.body.quotes)) {
        delivery.offerAgain(error.body.quotes as ShippingQuote[], typeof error.body.message === 'string' ? error.body.message : undefined);
      }
      const message = error instanceof Error && error.message ? error.message : 'Failed to proceed to payment';
      const field = error instanceof RequestError ? fieldOfServerError(error.body) : null;
      const shown = message.replace(/^[\w.]+: /, '');
      refused(field ? { field, message: shown } : { message });
      toast({ title: 'Failed to create checkout', description: shown, variant: 'error' });
    }
  }

  // Nothing to buy: the cart's own empty state, not a form that objects only when sent.
  if (hydrated && itemCount === 0) return <EmptyCart />;

  return (
    <FormProvider {...form}>
      <form className="grid gap-10 lg:grid-cols-[1fr_380px]" onSubmit={form.handleSubmit(proceed, invalid)} noValidate>
        <div className="space-y-8">
          <ContactFieldset readOnly={!hydrated} />
          <GiftFields readOnly={!hydrated} />
          <AddressFieldset readOnly={!hydrated} countryChosen={countryChosen} />
          <DeliveryMethods delivery={delivery} price={price} importCharges={importChargesStatement(values.shippingDetails.country)} />
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
          <PreorderNotice lines={lines} charge />
          <ProceedControls
            payment={payment}
            problem={errors.root?.order?.message}
            busy={isSubmitting}
            disabled={delivery.state.status === 'loading'}
            missing={missingForProceed(values.customerEmail, values.shippingDetails, values.gift.isGift)}
            hydrated={hydrated}
            goTo={focusField}
          />
          {/* Below the button, so its late arrival (after the payment-config call) moves nothing. */}
          <PaymentNotice />
        </aside>
      </form>
    </FormProvider>
  );
}
