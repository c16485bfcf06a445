/**
 * Codes: the publisher's promotion codes. Create one (a percentage or an AUD amount off the goods, a minimum
 * subtotal, Sydney start and end days, a total number of uses) and switch codes off or on again. Each shows its
 * uses (paid orders and orders awaiting payment hold one) and what it has taken off paid orders.
 */
import { useState, type SubmitEvent } from 'react';
import { PROMOTION_CODES } from '@/config/constants';
import { FieldError, invalidProps, TextField } from '@/features/forms/fields';
import { toast } from '@/features/toast/store';
import { formatLongDate, formatPrice } from '@/lib/format';
import { createCode, listCodes, setCodeActive, type NewPromotionCode, type PromotionCode } from './api';
import { LoadState, toastOutcome, useLoad } from './use-load';

const EMPTY = { code: '', kind: 'percent' as NewPromotionCode['kind'], amount: '', minSubtotal: '', startsOn: '', endsOn: '', maxUses: '' };

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

type CodeField = 'code' | 'amount' | 'min' | 'uses' | 'ends';
type CodeProblem = { field: CodeField | 'form'; message: string };

/** Why the form cannot be sent, and which field it is about; or null. */
function formProblem(form: typeof EMPTY): CodeProblem | null {
  if (!PROMOTION_CODES.pattern.test(form.code.trim().toUpperCase())) return { field: 'code', message: 'A code is 3 to 32 letters, digits, - or _.' };
  const amount = Number(form.amount);
  if (!(amount > 0)) return { field: 'amount', message: 'Enter how much the code takes off.' };
  if (form.kind === 'percent' && (!Number.isInteger(amount) || amount > 100)) return { field: 'amount', message: 'A percentage is a whole number from 1 to 100.' };
  if (form.minSubtotal && !(Number(form.minSubtotal) >= 0)) return { field: 'min', message: 'The minimum subtotal is an amount of 0 or more.' };
  if (form.maxUses && !(Number.isInteger(Number(form.maxUses)) && Number(form.maxUses) > 0)) {
    return { field: 'uses', message: 'The number of uses is a whole number above 0, or empty for no limit.' };
  }
  if (form.startsOn && form.endsOn && form.endsOn < form.startsOn) return { field: 'ends', message: 'The last day must be on or after the first.' };
  return null;
}

/** The field's id: `code-<field>`. */
const codeFieldId = (field: CodeField) => `code-${field}`;

function CodeForm({ onCreated }: { onCreated: () => void }) {
  const [form, setForm] = useState(EMPTY);
  const [busy, setBusy] = useState(false);
  // A problem is shown on its field (the server's, which names none, under the form), not in a toast far away.
  const [problem, setProblem] = useState<CodeProblem | null>(null);
  const set = (name: keyof typeof EMPTY) => (e: { target: { value: string } }) => setForm({ ...form, [name]: e.target.value });
  const errorOf = (field: CodeField) => (problem?.field === field ? problem.message : undefined);

  async function submit(event: SubmitEvent) {
    event.preventDefault();
    const found = formProblem(form);
    setProblem(found);
    if (found) return found.field === 'form' ? undefined : document.getElementById(codeFieldId(found.field))?.focus();
    setBusy(true);
    try {
      const code = form.code.trim().toUpperCase();
      await createCode({
        code,
        kind: form.kind,
        amount: Number(form.amount),
        min_subtotal: Number(form.minSubtotal || 0),
        starts_on: form.startsOn,
        ends_on: form.endsOn,
        max_uses: form.maxUses ? Number(form.maxUses) : null,
      });
      toast({ title: `Code ${code} created.` });
      setForm(EMPTY);
      onCreated();
    } catch (error) {
      setProblem({ field: 'form', message: error instanceof Error ? error.message : 'Could not create the code.' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate className="mt-4 grid gap-4 rounded-2xl bg-white p-4 ring-1 ring-slate-200 sm:grid-cols-2 lg:grid-cols-4" aria-labelledby="new-code-heading">
      <h3 id="new-code-heading" className="text-lg font-bold sm:col-span-2 lg:col-span-4">
        New code
      </h3>
      <div>
        <label htmlFor="code-code" className="label">
          Code
        </label>
        <input
          id="code-code"
          className="field uppercase"
          required
          maxLength={PROMOTION_CODES.maxLength}
          value={form.code}
          onChange={set('code')}
          placeholder="PARISH10"
          {...invalidProps('code-code', errorOf('code'))}
        />
        <FieldError fieldId="code-code" message={errorOf('code')} />
      </div>
      <div>
        <label htmlFor="code-kind" className="label">
          Takes off
        </label>
        <select id="code-kind" className="field" value={form.kind} onChange={set('kind')}>
          <option value="percent">A percentage of the goods</option>
          <option value="amount">An amount (AUD) off the goods</option>
        </select>
      </div>
      <TextField
        id="code-amount"
        label={form.kind === 'percent' ? 'Percentage (1-100)' : 'Amount (AUD)'}
        type="number"
        required
        min={form.kind === 'percent' ? 1 : 0.01}
        max={form.kind === 'percent' ? 100 : undefined}
        step={form.kind === 'percent' ? 1 : 0.01}
        inputMode="decimal"
        value={form.amount}
        onChange={set('amount')}
        error={errorOf('amount')}
      />
      <TextField
        id="code-min"
        label="Minimum subtotal (AUD, optional)"
        type="number"
        min={0}
        step={0.01}
        inputMode="decimal"
        value={form.minSubtotal}
        onChange={set('minSubtotal')}
        error={errorOf('min')}
      />
      <TextField id="code-starts" label="First day (optional)" type="date" value={form.startsOn} max={form.endsOn || undefined} onChange={set('startsOn')} />
      <TextField id="code-ends" label="Last day (optional)" type="date" value={form.endsOn} min={form.startsOn || undefined} onChange={set('endsOn')} error={errorOf('ends')} />
      <TextField id="code-uses" label="Total uses (optional)" type="number" min={1} step={1} inputMode="numeric" value={form.maxUses} onChange={set('maxUses')} error={errorOf('uses')} />
      <div className="flex items-end">
        <button type="submit" className="btn-primary w-full" disabled={busy}>
          {busy ? 'Creating...' : 'Create code'}
        </button>
      </div>
      {problem?.field === 'form' && (
        <p role="alert" className="text-sm font-semibold text-red-800 sm:col-span-2 lg:col-span-4">
          {problem.message}
        </p>
      )}
      <p className="text-sm text-slate-700 sm:col-span-2 lg:col-span-4">
        One code per order. It comes off the goods, never the shipping; free shipping is judged on the goods after it. Days are Sydney days, both included.
      </p>
    </form>
  );
}

function CodeRow({ code, onChanged }: { code: PromotionCode; onChanged: () => void }) {
  async function toggle() {
    const switched = () => setCodeActive(code.id, !code.active).then(() => `Code ${code.code} ${code.active ? 'switched off' : 'switched on'}.`);
    if (await toastOutcome(switched, 'Could not change the code.')) onChanged();
  }
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
  const { state, reload } = useLoad(listCodes);
  return (
    <section aria-labelledby="codes-heading">
      <h2 id="codes-heading" className="text-2xl font-bold">
        Codes
      </h2>
      <p className="mt-1 text-sm text-slate-700">Promotion codes shoppers enter at checkout. A code switched off is refused at once; orders that used it keep their discount.</p>
      <CodeForm onCreated={reload} />
      <LoadState state={state} what="codes" />
      {state.status === 'ready' &&
        (state.data.length === 0 ? (
          <p className="mt-4 text-slate-700">No codes yet.</p>
        ) : (
          <ul className="mt-4 space-y-3">
            {state.data.map((code) => (
              <CodeRow key={`${code.id}-${code.active}-${code.uses}`} code={code} onChanged={reload} />
            ))}
          </ul>
        ))}
    </section>
  );
}
