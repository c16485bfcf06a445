/** Stock: each product's count, set with a reason (recorded); low stock highlighted. */
import { useState, type FormEvent } from 'react';
import { BACK_OFFICE } from '@/config/constants';
import { toast } from '@/features/toast/store';
import { toSingleLine } from '@/lib/text';
import { refreshShopStock } from '@/features/catalog/refresh-shop-stock';
import { listStock, setStock, type StockRow } from './api';
import { LoadState, useLoad } from './use-load';

function StockForm({ row, onSaved }: { row: StockRow; onSaved: () => void }) {
  const [stock, setStockValue] = useState(String(row.stock));
  const [reason, setReason] = useState('');

  async function submit(event: FormEvent) {
    event.preventDefault();
    const value = Number(stock);
    if (!Number.isInteger(value) || value < 0) return toast({ title: 'Stock must be a whole number, 0 or more.', variant: 'error' });
    // The reason is kept in the stock history as one line.
    const why = toSingleLine(reason);
    if (!why) return toast({ title: 'Give a reason for the change.', variant: 'error' });
    try {
      await setStock(row.id, value, why);
      toast({ title: `${row.title}: stock set to ${value}.` });
      void refreshShopStock(row.id).then((refresh) => refresh.ok || toast({ title: refresh.message, variant: 'info' }));
      setReason('');
      onSaved();
    } catch (error) {
      toast({ title: error instanceof Error ? error.message : 'Could not change the stock.', variant: 'error' });
    }
  }

  const low = row.stock < BACK_OFFICE.lowStockBelow;
  return (
    <form
      onSubmit={submit}
      className={`grid gap-3 rounded-2xl p-4 ring-1 sm:grid-cols-[2fr_1fr_2fr_auto] sm:items-end ${low ? 'bg-amber-50 ring-amber-400' : 'bg-white ring-slate-200'}`}
      aria-label={`Stock of ${row.title}`}
    >
      <div>
        <p className="font-semibold">{row.title}</p>
        <p className="text-sm text-slate-700">
          In stock: <strong>{row.stock}</strong>
          {low && <span className="ml-2 rounded-full bg-amber-200 px-2 py-0.5 text-xs font-bold text-amber-950">Low stock</span>}
        </p>
      </div>
      <div>
        <label htmlFor={`stock-${row.id}`} className="label">
          New stock
        </label>
        <input id={`stock-${row.id}`} className="field" type="number" min={0} step={1} inputMode="numeric" value={stock} onChange={(e) => setStockValue(e.target.value)} />
      </div>
      <div>
        <label htmlFor={`reason-${row.id}`} className="label">
          Reason
        </label>
        <input id={`reason-${row.id}`} className="field" value={reason} maxLength={200} onChange={(e) => setReason(e.target.value)} placeholder="e.g. reprint delivered" />
      </div>
      <button type="submit" className="btn-primary">
        Save stock
      </button>
    </form>
  );
}

export function StockPanel() {
  const { state, reload } = useLoad(listStock, []);
  return (
    <section aria-labelledby="stock-heading">
      <h2 id="stock-heading" className="text-2xl font-bold">
        Stock
      </h2>
      <p className="mt-1 text-sm text-slate-700">Below {BACK_OFFICE.lowStockBelow} copies is highlighted. Every change is recorded with its reason.</p>
      <LoadState state={state} what="stock" />
      {state.status === 'ready' && (
        <div className="mt-4 space-y-3">
          {state.data.map((row) => (
            <StockForm key={`${row.id}-${row.stock}`} row={row} onSaved={reload} />
          ))}
        </div>
      )}
    </section>
  );
}
