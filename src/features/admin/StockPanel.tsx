/**
 * Stock: each product's count, set to a counted figure or added to by a delivery (+N), each with a reason; its
 * history (who, when, from, to, why, or the order that sold or returned the copies); its low-stock level, with
 * the titles under it highlighted; and how many shoppers wait to hear it is back.
 */
import { useEffect, useId, useState, type SubmitEvent } from 'react';
import { LIMITS } from '@/config/constants';
import { FieldError, invalidProps, TextField } from '@/features/forms/fields';
import { toast } from '@/features/toast/store';
import { formatDateTime, orderNumber } from '@/lib/format';
import { toSingleLine } from '@/lib/text';
import { listStock, runStockAction, sendAll, type StockActionRequest, type StockRow, stockHistory } from './api';
import { goTo, withParams } from './route';
import { LoadState, useLoad } from './use-load';
import { LoadMore, usePages } from './use-pages';

/**
 * 50 changes at a time (Load more changes); the history open and its pages loaded are kept in the address
 * (#stock?history=<product>&after=…). `version` changes when the stock does, so the history shows the change just made.
 */
function StockHistory({ productId, version, params }: { productId: string; version: string; params: URLSearchParams }) {
  const cursors = params.getAll('after');
  const pages = usePages(
    `${productId}\u0000${version}`,
    cursors,
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
      <LoadMore pages={pages} what="changes" onMore={(cursor) => goTo('stock', withParams(params, { after: [...cursors, cursor] }), { replace: true })} />
    </div>
  );
}

function StockForm({ row, onSaved, params }: { row: StockRow; onSaved: () => void; params: URLSearchParams }) {
  const id = useId();
  const [stock, setStockValue] = useState(String(row.stock));
  const [received, setReceived] = useState('');
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const showHistory = params.get('history') === row.id;
  // A problem is shown under the field it is about (or under the form, from the server), where the eye is.
  const [error, setError] = useState<{ field: 'stock' | 'received' | 'reason' | 'form'; message: string } | null>(null);
  const errorOf = (field: 'stock' | 'received' | 'reason') => (error?.field === field ? error.message : undefined);
  // A change made here or elsewhere: the field starts from the new figure.
  useEffect(() => setStockValue(String(row.stock)), [row.stock]);

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const submitter = event.nativeEvent.submitter;
    const receiving = submitter instanceof HTMLButtonElement && submitter.value === 'receive';
    // The reason is kept in the stock history as one line.
    const why = toSingleLine(reason);
    const figure = Number(receiving ? received : stock);
    if (receiving && (received.trim() === '' || !Number.isInteger(figure) || figure < 1)) return setError({ field: 'received', message: 'Copies received must be a whole number, 1 or more.' });
    if (!receiving && (stock.trim() === '' || !Number.isInteger(figure) || figure < 0)) return setError({ field: 'stock', message: 'Stock must be a whole number, 0 or more.' });
    if (!why) return setError({ field: 'reason', message: 'Give a reason for the change.' });
    setError(null);
    const request: StockActionRequest = receiving ? { action: 'receive', productId: row.id, quantity: figure, reason: why } : { action: 'set', productId: row.id, stock: figure, reason: why };
    setBusy(true);
    try {
      const { message, mailing } = await runStockAction(request);
      setReason('');
      setReceived('');
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
      setError({ field: 'form', message: failure instanceof Error ? failure.message : 'Could not change the stock.' });
    } finally {
      setBusy(false);
    }
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
            { field: 'stock', label: 'New stock', min: 0, value: stock, set: setStockValue, action: 'set', button: 'Set to', buttonClass: 'btn-primary' },
            { field: 'received', label: 'Copies received', min: 1, value: received, set: setReceived, placeholder: '+N', action: 'receive', button: 'Received', buttonClass: 'btn-gold' },
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
                  value={figure.value}
                  placeholder={'placeholder' in figure ? figure.placeholder : undefined}
                  onChange={(e) => figure.set(e.target.value)}
                  {...invalidProps(`${id}-${figure.field}`, errorOf(figure.field))}
                />
              </div>
              <button type="submit" name="action" value={figure.action} className={`${figure.buttonClass} shrink-0 px-4`} disabled={busy}>
                {figure.button}
              </button>
            </div>
            <FieldError fieldId={`${id}-${figure.field}`} message={errorOf(figure.field)} />
          </div>
        ))}
        <TextField
          id={`${id}-reason`}
          label="Reason"
          value={reason}
          maxLength={LIMITS.stockReasonMaxLength}
          onChange={(e) => setReason(e.target.value)}
          placeholder="e.g. reprint delivered"
          error={errorOf('reason')}
        />
        {error?.field === 'form' && (
          <p role="alert" className="text-sm font-semibold text-red-800 sm:col-span-3">
            {error.message}
          </p>
        )}
      </form>
      {showHistory && <StockHistory productId={row.id} version={`${row.stock}`} params={params} />}
    </section>
  );
}

export function StockPanel({ params }: { params: URLSearchParams }) {
  const { state, reload } = useLoad(listStock);
  return (
    <section aria-labelledby="stock-heading">
      <h2 id="stock-heading" className="text-2xl font-bold">
        Stock
      </h2>
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
    </section>
  );
}
