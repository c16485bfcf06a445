/**
 * Codes: the publisher's promotion codes. Create one (a percentage or an AUD amount off the goods, a minimum
 * subtotal, Sydney start and end days, a total number of uses) and switch codes off or on again. Each shows its
 * uses (paid orders and orders awaiting payment hold one) and what it has taken off paid orders.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { PROMOTION_CODES } from '@/config/constants';
import { codeForm, type CodeFormValues, type NewPromotionCode } from '@/features/staff-actions/promotion-codes';
import { ActionButton, FieldError, invalidProps, TextField } from '@/features/forms/fields';
import { toast } from '@/features/toast/store';
import { formatLongDate, formatPrice } from '@/lib/format';
import { createCode, listCodes, setCodeActive, type PromotionCode } from './codes-api';
import { useQuery } from '@tanstack/react-query';
import { keys, LoadState, loaded, useAction, useRefresh } from './queries';
import { Panel } from '@/components/Section';

/** What a code takes off, e.g. "10% off" or "$5.00 off". */
const codeValue = (code: Pick<PromotionCode, 'kind' | 'amount'>) => (code.kind === 'percent' ? `${code.amount}% off` : `${formatPrice(code.amount)} off`);

/** The last Sydney day a code runs: the day before its end (which is the midnight after the day chosen). */
const lastDay = (endsAt: string) => formatLongDate(new Date(new Date(endsAt).getTime() - 1));

function period(code: PromotionCode): string {
  if (!code.starts_at && !code.ends_at) return 'No dates';
  if (!code.ends_at) return `From ${formatLongDate(code.starts_at!)}`;
  if (!code.starts_at) return `Until ${lastDay(code.ends_at)}`;
  return `${formatLongDate(code.starts_at)} to ${lastDay(code.ends_at)}`;
}

const EMPTY: CodeFormValues = { code: '', kind: 'percent', amount: '', minSubtotal: '', startsOn: '', endsOn: '', maxUses: '' };

function CodeForm({ onCreated }: { onCreated: () => void }) {
  const {
    register,
    handleSubmit,
    reset,
    setError,
    watch,
    formState: { errors, isSubmitting: busy },
  } = useForm<CodeFormValues, unknown, NewPromotionCode>({ resolver: zodResolver(codeForm), defaultValues: EMPTY });
  // A problem is shown on its field (the server's, which names none, under the form), not in a toast far away.
  const errorOf = (field: 'code' | 'amount' | 'minSubtotal' | 'maxUses' | 'endsOn') => errors[field]?.message;
  const kind = watch('kind');
  const [startsOn, endsOn] = watch(['startsOn', 'endsOn']);

  async function create(code: NewPromotionCode) {
    try {
      await createCode(code);
      toast({ title: `Code ${code.code} created.` });
      reset(EMPTY);
      onCreated();
    } catch (error) {
      setError('root', { message: error instanceof Error ? error.message : 'Could not create the code.' });
    }
  }

  return (
    <form onSubmit={handleSubmit(create)} noValidate className="mt-4 grid gap-4 rounded-2xl bg-white p-4 ring-1 ring-slate-200 sm:grid-cols-2 lg:grid-cols-4" aria-labelledby="new-code-heading">
      <h3 id="new-code-heading" className="text-lg font-bold sm:col-span-2 lg:col-span-4">
        New code
      </h3>
      <div>
        <label htmlFor="code-code" className="label">
          Code
        </label>
        <input id="code-code" className="field uppercase" required maxLength={PROMOTION_CODES.maxLength} placeholder="PARISH10" {...register('code')} {...invalidProps('code-code', errorOf('code'))} />
        <FieldError fieldId="code-code" message={errorOf('code')} />
      </div>
      <div>
        <label htmlFor="code-kind" className="label">
          Takes off
        </label>
        <select id="code-kind" className="field" {...register('kind')}>
          <option value="percent">A percentage of the goods</option>
          <option value="amount">An amount (AUD) off the goods</option>
        </select>
      </div>
      <TextField
        id="code-amount"
        label={kind === 'percent' ? 'Percentage (1-100)' : 'Amount (AUD)'}
        type="number"
        required
        min={kind === 'percent' ? 1 : 0.01}
        max={kind === 'percent' ? 100 : undefined}
        step={kind === 'percent' ? 1 : 0.01}
        inputMode="decimal"
        error={errorOf('amount')}
        {...register('amount')}
      />
      <TextField id="code-min" label="Minimum subtotal (AUD, optional)" type="number" min={0} step={0.01} inputMode="decimal" error={errorOf('minSubtotal')} {...register('minSubtotal')} />
      <TextField id="code-starts" label="First day (optional)" type="date" max={endsOn || undefined} {...register('startsOn')} />
      <TextField id="code-ends" label="Last day (optional)" type="date" min={startsOn || undefined} error={errorOf('endsOn')} {...register('endsOn')} />
      <TextField id="code-uses" label="Total uses (optional)" type="number" min={1} step={1} inputMode="numeric" error={errorOf('maxUses')} {...register('maxUses')} />
      <div className="flex items-end">
        <ActionButton type="submit" className="btn-primary w-full" busy={busy}>
          {busy ? 'Creating...' : 'Create code'}
        </ActionButton>
      </div>
      {errors.root && (
        <p role="alert" className="text-sm font-semibold text-red-800 sm:col-span-2 lg:col-span-4">
          {errors.root.message}
        </p>
      )}
      <p className="text-sm text-slate-700 sm:col-span-2 lg:col-span-4">
        One code per order. It comes off the goods, never the shipping; free shipping is judged on the goods after it. Days are Sydney days, both included.
      </p>
    </form>
  );
}

function CodeRow({ code }: { code: PromotionCode }) {
  const { act } = useAction(() => setCodeActive(code.id, !code.active).then(() => `Code ${code.code} ${code.active ? 'switched off' : 'switched on'}.`), [keys.codes], 'Could not change the code.');
  const toggle = () => void act(undefined);
  return (
    <li
      className={`grid gap-2 rounded-2xl p-4 ring-1 sm:grid-cols-[1fr_auto] sm:items-center ${code.active ? 'bg-white ring-slate-200' : 'bg-slate-100 ring-slate-300'}`}
      aria-label={`Code ${code.code}`}
    >
      <div>
        <p className="flex flex-wrap items-center gap-2">
          <span className="font-mono text-lg font-bold">{code.code}</span>
          <span className="font-semibold">{codeValue(code)}</span>
          <span className={`rounded-full px-2 py-0.5 text-xs font-bold ${code.active ? 'bg-emerald-100 text-emerald-900' : 'bg-slate-300 text-slate-900'}`}>{code.active ? 'On' : 'Off'}</span>
        </p>
        <p className="mt-1 text-sm text-slate-700">
          {code.min_subtotal > 0 ? `Goods of ${formatPrice(code.min_subtotal)} or more` : 'Any order'} · {period(code)} ·{' '}
          <span data-testid="code-uses">
            Uses: {code.uses}
            {code.max_uses !== null ? ` of ${code.max_uses}` : ''}
          </span>{' '}
          · {formatPrice(code.discount_given)} off {code.paid_orders} paid {code.paid_orders === 1 ? 'order' : 'orders'}
        </p>
      </div>
      <button type="button" className="btn-secondary" onClick={toggle} aria-label={`${code.active ? 'Switch off' : 'Switch on'} ${code.code}`}>
        {code.active ? 'Switch off' : 'Switch on'}
      </button>
    </li>
  );
}

export function CodesPanel() {
  const state = loaded(useQuery({ queryKey: keys.codes, queryFn: listCodes }));
  const refresh = useRefresh();
  return (
    <Panel id="codes-heading" title="Codes">
      <p className="mt-1 text-sm text-slate-700">Promotion codes shoppers enter at checkout. A code switched off is refused at once; orders that used it keep their discount.</p>
      <CodeForm onCreated={() => void refresh(keys.codes)} />
      <LoadState state={state} what="codes" />
      {state.status === 'ready' &&
        (state.data.length === 0 ? (
          <p className="mt-4 text-slate-700">No codes yet.</p>
        ) : (
          <ul className="mt-4 space-y-3">
            {state.data.map((code) => (
              <CodeRow key={`${code.id}-${code.active}-${code.uses}`} code={code} />
            ))}
          </ul>
        ))}
    </Panel>
  );
}
