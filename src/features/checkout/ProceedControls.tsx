/**
 * The foot of the checkout's summary: where the payment page stands (open in another tab, closed because the
 * order changed, cancelled there), a problem of the whole order, *Proceed to Payment*, and, while it waits, what
 * it waits for, each a way to its field.
 */
import type { Payment } from './use-payment-page';
import type { CheckoutField, MissingField } from './validation';

interface Props {
  payment: Payment;
  problem: string | undefined;
  busy: boolean;
  disabled: boolean;
  /** What the button waits for; shown once the page is live. */
  missing: readonly MissingField[];
  hydrated: boolean;
  goTo: (field: CheckoutField) => void;
}

export default function ProceedControls({ payment, problem, busy, disabled, missing, hydrated, goTo }: Props) {
  return (
    <>
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
      <button type="submit" className="btn-primary w-full py-3" disabled={busy || disabled || missing.length > 0} aria-describedby={missing.length > 0 ? 'proceed-missing' : undefined}>
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
                <button type="button" className="font-semibold text-navy underline underline-offset-2" onClick={() => goTo(m.field)}>
                  {m.name}
                </button>
              </span>
            ))}{' '}
            to continue
          </>
        )}
      </p>
      <p className="text-center text-sm text-slate-600">The secure payment page opens in a new tab.</p>
    </>
  );
}
