/**
 * Stock: each product's count, set to a counted figure or added to by a delivery (+N), each with a reason; its
 * history (who, when, from, to, why, or the order that sold or returned the copies); its low-stock level, with
 * the titles under it highlighted; and how many shoppers wait to hear it is back.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { type SubmitEvent, useEffect, useId, useRef } from 'react';
import { useForm } from 'react-hook-form';
import { LIMITS } from '@/config/constants';
import { ActionButton, FieldError, invalidProps, TextField } from '@/features/forms/fields';
import { toast } from '@/features/toast/store';
import { formatDateTime, orderNumber } from '@/lib/format';
import type { z } from '@/lib/zod';
import { type StockAction, type StockChecked, stockForm, type StockFormValues } from '@/features/staff-actions/stock-actions';
import { listStock, runStockAction, type StockRow, stockHistory } from './stock-api';
import { sendAll } from './mail-api';
import { goTo, withParams } from './route';
import { keepNextPage } from './ListControls';
import { useQuery } from '@tanstack/react-query';
import { keys, LoadMore, LoadState, loaded, usePagedQuery, useRefresh } from './queries';
import { Panel } from '@/components/Section';

/**
 * 50 changes at a time (Load more changes); the history open and its pages loaded are kept in the address
 * (#stock?history=<product>&after=…). A stock change reads it again (it is under the stock's key), so it shows the change just made.
 */
function StockHistory({ productId, params }: { productId: string; params: URLSearchParams }) {
  const pages = usePagedQuery(
    [...keys.stock, 'history', productId],
    params,
    (cursor) => stockHistory(productId, cursor),
    (change) => String(change.id),
  );
  const { state } = pages;
  return (
    <div className="mt-3 border-t border-slate-200 pt-3">
      <LoadState state={state} what="the history" />
      {state.status === 'ready' &&
        (state.data.length === 0 ? (
          <p className="text-sm text-slate-700">No changes recorded yet.</p>
        ) : (
          <ol className="space-y-2 text-sm" aria-label="Stock history, newest first">
            {state.data.map((change) => (
              <li key={change.id} className="flex flex-wrap gap-x-3 gap-y-1 rounded-lg bg-slate-50 p-2">
                <span className="font-semibold tabular-nums">
                  {change.previous_stock} → {change.new_stock}
                </span>
                <span>
                  {change.reason}
                  {change.order_id && change.order_number !== null && (
                    <>
                      {' — '}
                      <a className="font-semibold text-navy underline" href={`#order/${change.order_id}`}>
                        order {orderNumber(change.order_number)}
                      </a>
                    </>
                  )}
                </span>
                <span className="text-slate-700 [overflow-wrap:anywhere]">{change.actor}</span>
                <time className="text-slate-700" dateTime={change.created_at}>
                  {formatDateTime(change.created_at)}
                </time>
              </li>
            ))}
          </ol>
        ))}
      <LoadMore pages={pages} what="changes" onMore={keepNextPage('stock', params)} />
    </div>
  );
}

function StockForm({ row, onSaved, params }: { row: StockRow; onSaved: () => void; params: URLSearchParams }) {
  const id = useId();
  const showHistory = params.get('history') === row.id;
  // Which button sent the form: Set to checks New stock, Received checks Copies received (and each the reason).
  const action = useRef<'set' | 'receive'>('set');
  const {
    register,
    handleSubmit,
    reset,
    setError,
    setValue,
    formState: { errors, isSubmitting: busy },
  } = useForm<StockFormValues, unknown, StockChecked>({
    // The schema of the button pressed; both read the same three fields, and each answers only the ones it checks.
    resolver: (values, context, options) => zodResolver(stockForm[action.current] as unknown as z.ZodType<StockChecked, StockFormValues>)(values, context, options),
    defaultValues: { stock: String(row.stock), received: '', reason: '' },
  });
  // A problem is shown under the field it is about (or under the form, from the server), where the eye is.
  const errorOf = (field: 'stock' | 'received' | 'reason') => errors[field]?.message;
  // A change made here or elsewhere: the field starts from the new figure.
  useEffect(() => setValue('stock', String(row.stock)), [row.stock, setValue]);

  async function save(checked: StockChecked) {
    const request: StockAction =
      action.current === 'receive'
        ? { action: 'receive', productId: row.id, quantity: checked.received ?? 0, reason: checked.reason }
        : { action: 'set', productId: row.id, stock: checked.stock ?? 0, reason: checked.reason };
    try {
      const { message, mailing } = await runStockAction(request);
      reset({ stock: String(row.stock), received: '', reason: '' });
      onSaved();
      if (!mailing) return toast({ title: message });
      // The waiting shoppers' emails go out in batches, as a newsletter does; a send that stops is resumed from
      // Newsletter. One toast is shown at a time, so the stock change stays its title while the send is told below it.
      toast({ title: message, description: 'Sending the email to them...' });
      try {
        toast({ title: message, description: await sendAll(mailing.id) });
      } catch (sendError) {
        const why = sendError instanceof Error ? sendError.message : 'Sending failed.';
        toast({ title: message, description: `${why} Resume sending it from Newsletter.`, variant: 'error' });
      }
    } catch (failure) {
      setError('root', { message: failure instanceof Error ? failure.message : 'Could not change the stock.' });
    }
  }

  function submit(event: SubmitEvent<HTMLFormElement>) {
    const submitter = event.nativeEvent.submitter;
    action.current = submitter instanceof HTMLButtonElement && submitter.value === 'receive' ? 'receive' : 'set';
    return handleSubmit(save)(event);
  }

  const low = row.stock < row.low_stock_level;
  return (
    <section className={`rounded-2xl p-4 ring-1 ${low ? 'bg-amber-50 ring-amber-400' : 'bg-white ring-slate-200'}`} aria-label={`Stock of ${row.title}`}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <p className="font-semibold">{row.title}</p>
          <p className="text-sm text-slate-700">
            In stock: <strong>{row.stock}</strong> <span className="text-slate-600">(low below {row.low_stock_level})</span>
            {low && <span className="ml-2 rounded-full bg-amber-200 px-2 py-0.5 text-xs font-bold text-amber-950">Low stock</span>}
          </p>
          <p className="text-sm text-slate-700">{row.waiting === 0 ? 'Nobody waiting to hear it is back' : `${row.waiting} waiting to hear it is back`}</p>
        </div>
        <button
          type="button"
          className="btn-secondary px-4 py-1.5 text-sm"
          aria-expanded={showHistory}
          onClick={() => goTo('stock', withParams(params, { history: showHistory ? null : row.id, after: null }), { replace: true })}
        >
          {showHistory ? 'Hide history' : 'History'}
        </button>
      </div>
      <form onSubmit={submit} noValidate className="mt-3 grid gap-3 sm:grid-cols-[1fr_1fr_2fr] sm:items-start" aria-label={`Change the stock of ${row.title}`}>
        {/* Each figure with the button that applies it, and its error beneath; the button's value says which change it makes. */}
        {(
          [
            { field: 'stock', label: 'New stock', min: 0, action: 'set', button: 'Set to', buttonClass: 'btn-primary' },
            { field: 'received', label: 'Copies received', min: 1, placeholder: '+N', action: 'receive', button: 'Received', buttonClass: 'btn-gold' },
          ] as const
        ).map((figure) => (
          <div key={figure.field}>
            <div className="flex items-end gap-2">
              <div className="min-w-0 flex-1">
                <label htmlFor={`${id}-${figure.field}`} className="label">
                  {figure.label}
                </label>
                <input
                  id={`${id}-${figure.field}`}
                  className="field"
                  type="number"
                  min={figure.min}
                  max={LIMITS.stockMax}
                  step={1}
                  inputMode="numeric"
                  placeholder={'placeholder' in figure ? figure.placeholder : undefined}
                  {...register(figure.field)}
                  {...invalidProps(`${id}-${figure.field}`, errorOf(figure.field))}
                />
              </div>
              <ActionButton type="submit" name="action" value={figure.action} className={`${figure.buttonClass} shrink-0 px-4`} busy={busy}>
                {figure.button}
              </ActionButton>
            </div>
            <FieldError fieldId={`${id}-${figure.field}`} message={errorOf(figure.field)} />
          </div>
        ))}
        <TextField id={`${id}-reason`} label="Reason" maxLength={LIMITS.stockReasonMaxLength} {...register('reason')} placeholder="e.g. reprint delivered" error={errorOf('reason')} />
        {errors.root && (
          <p role="alert" className="text-sm font-semibold text-red-800 sm:col-span-3">
            {errors.root.message}
          </p>
        )}
      </form>
      {showHistory && <StockHistory productId={row.id} params={params} />}
    </section>
  );
}

export function StockPanel({ params }: { params: URLSearchParams }) {
  const state = loaded(useQuery({ queryKey: keys.stock, queryFn: listStock }));
  const refresh = useRefresh();
  // A change drew an availability mailing too: Newsletter lists it.
  const reload = () => void refresh(keys.stock, keys.newsletters);
  return (
    <Panel id="stock-heading" title="Stock">
      <p className="mt-1 text-sm text-slate-700">
        Set the stock to a count, or add a delivery with Received. Every change is recorded with its reason, and every sale and cancellation with its order. A title below its low-stock level is
        highlighted, and a sale that takes it there emails you once.
      </p>
      <LoadState state={state} what="stock" />
      {state.status === 'ready' && (
        <div className="mt-4 space-y-3">
          {state.data.map((row) => (
            <StockForm key={row.id} row={row} onSaved={reload} params={params} />
          ))}
        </div>
      )}
    </Panel>
  );
}
