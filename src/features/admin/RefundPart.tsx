/** Part refunds: the form that sends part of the payment back, and the list of those made. */
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { ActionButton } from '@/features/forms/fields';
import { useQuestion } from '@/features/forms/use-question';
import { refundForm } from '@/features/staff-actions/order-actions';
import { toast } from '@/features/toast/store';
import { formatDateTime, formatPrice } from '@/lib/format';
import { type OrderDetail as Order, type OrderRefunds, runOrderAction } from './orders-api';
import { ORDER_CHANGES, useRefresh } from './queries';
import { Section } from '@/components/Section';

type RefundTyped = { amount: string; reason: string };

/**
 * Refunds part of the payment: an amount and a reason (the customer reads it in their email), never more than
 * what is left; the database holds to that too, whoever else is refunding at the same moment. One problem is
 * shown at a time, under both fields, on the field it is about.
 */
export function RefundPartForm({ order, refunds }: { order: Order; refunds: OrderRefunds }) {
  const left = refunds.remaining - refunds.pending;
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<RefundTyped, { leftCents: number }, { amount: number; reason: string }>({
    // What is left changes as refunds are made: the schema is the function's, bounded by it.
    resolver: (values, context, options) => zodResolver(refundForm(context?.leftCents ?? 0))(values, context, options),
    context: { leftCents: Math.round(left * 100) },
    defaultValues: { amount: '', reason: '' },
  });
  const refresh = useRefresh();
  // A checked refund waits here for the publisher's "yes": money sent back cannot be taken back.
  const question = useQuestion<{ cents: number; reason: string }>();
  const confirming = question.asking;
  const [busy, setBusy] = useState(false);
  const unconfirm = { onChange: question.close };

  async function refund({ cents, reason }: { cents: number; reason: string }) {
    question.close();
    setBusy(true);
    try {
      toast({ title: await runOrderAction({ action: 'refund_part', orderId: order.id, amountCents: cents, reason }) });
      reset();
    } catch (failure) {
      setError('root', { message: failure instanceof Error ? failure.message : 'The refund failed.' });
    } finally {
      setBusy(false);
      await refresh(...ORDER_CHANGES);
    }
  }

  const field = errors.amount ? 'amount' : errors.reason ? 'reason' : errors.root ? 'form' : null;
  const message = (errors.amount ?? errors.reason ?? errors.root)?.message;
  const invalid = (name: 'amount' | 'reason') => (field === name ? { 'aria-invalid': true as const } : {});
  const describedBy = (name: 'amount' | 'reason') => (field === name ? 'refund-error' : undefined);
  const working = busy || isSubmitting;
  return (
    <form
      onSubmit={handleSubmit(({ amount, reason }) => question.ask({ cents: amount, reason }))}
      noValidate
      className="rounded-2xl bg-white p-4 ring-1 ring-slate-200"
      aria-labelledby="refund-heading"
      aria-busy={busy}
    >
      <h3 id="refund-heading" className="text-lg font-bold">
        Refund part
      </h3>
      <p className="mt-1 text-sm text-slate-700" data-testid="refund-summary">
        Paid {formatPrice(refunds.total)} · Refunded {formatPrice(refunds.refunded)} · <strong>Left to refund {formatPrice(left)}</strong>
      </p>
      <div className="mt-3 grid gap-3 sm:grid-cols-[10rem_1fr]">
        <div>
          <label htmlFor="refund-amount" className="label">
            Amount (AUD)
          </label>
          <input
            id="refund-amount"
            className="field"
            inputMode="decimal"
            autoComplete="off"
            maxLength={12}
            {...register('amount', unconfirm)}
            {...invalid('amount')}
            aria-describedby={[describedBy('amount'), 'refund-amount-hint'].filter(Boolean).join(' ')}
          />
          {/* A hint, not a placeholder: a greyed 12.50 in the box reads as an amount already there. */}
          <p id="refund-amount-hint" className="mt-1 text-sm text-slate-600">
            Dollars and cents, such as 12.50
          </p>
        </div>
        <div>
          <label htmlFor="refund-reason" className="label">
            Reason (the customer reads it in their email)
          </label>
          <input id="refund-reason" className="field" maxLength={500} {...register('reason', unconfirm)} {...invalid('reason')} aria-describedby={describedBy('reason')} />
        </div>
      </div>
      {message && (
        <p id="refund-error" role="alert" className="mt-2 text-sm font-semibold text-red-800">
          {message}
        </p>
      )}
      {confirming ? (
        <span className="mt-3 flex flex-wrap items-center gap-2 rounded-xl bg-red-50 p-2">
          <span className="text-sm text-red-900" role="status">
            Refund {formatPrice(confirming.cents / 100)} to the customer’s card? It cannot be undone.
          </span>
          <button ref={question.question} type="button" className="btn bg-red-700 text-white hover:bg-red-800" onClick={() => void refund(confirming)}>
            Confirm refund of {formatPrice(confirming.cents / 100)}
          </button>
          <button type="button" className="btn-secondary" onClick={question.close}>
            Don’t refund
          </button>
        </span>
      ) : (
        <ActionButton ref={question.button} type="submit" className="btn-primary mt-3" busy={working}>
          {busy ? 'Refunding...' : 'Refund part'}
        </ActionButton>
      )}
    </form>
  );
}

/** The part refunds so far, with their reasons. */
export function RefundList({ refunds }: { refunds: OrderRefunds }) {
  if (refunds.parts.length === 0) return null;
  return (
    <Section id="refunds-heading" title="Part refunds">
      <ul className="mt-2 divide-y divide-slate-100 rounded-2xl bg-white ring-1 ring-slate-200">
        {refunds.parts.map((part) => (
          <li key={part.created_at} className="flex flex-wrap justify-between gap-x-3 px-4 py-2">
            <span className="min-w-0 break-words">
              <strong>{formatPrice(part.amount)}</strong> — {part.reason}
              {part.status !== 'succeeded' && <span className="text-sm text-red-800"> ({part.status === 'pending' ? 'in progress' : 'did not go through'})</span>}
            </span>
            <span className="text-sm text-slate-700">
              {formatDateTime(part.created_at)} by {part.actor}
            </span>
          </li>
        ))}
      </ul>
    </Section>
  );
}
