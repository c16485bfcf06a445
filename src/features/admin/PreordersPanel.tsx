/**
 * Pre-orders: each title on pre-order with its release date, its allocation (editable, never below the copies sold)
 * and the first delivery expected, the copies pre-ordered and left, its buyers and the money taken; Release now with
 * the first delivery (the orders waiting become to pack, each buyer emailed once); Move the date (each buyer told
 * once); and a buyer's pre-order cancelled for a full refund by the order's own Cancel and refund.
 */
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useRef, useState } from 'react';
import type { z } from '@/lib/zod';
import { customsGapText, fieldsOfColumns } from '@/features/customs/customs-data';
import { ActionButton, FieldError, invalidProps } from '@/features/forms/fields';
import { useQuestion } from '@/features/forms/use-question';
import { allocation as allocationSchema, type PreorderAction, preorderActionSchema, releaseDate as dateSchema } from '@/features/staff-actions/preorder-actions';
import { toast } from '@/features/toast/store';
import { countOf, formatDateTime, formatLongDate, formatPrice, orderNumber } from '@/lib/format';
import { BackOfficeError } from './api';
import { sendAll } from './mail-api';
import { runOrderAction } from './orders-api';
import { listPreorders, preorderBuyers, type PreordersOwed as Owed, type PreorderTitleRow, runPreorderAction } from './preorders-api';
import { keys, LoadState, loaded, ORDER_CHANGES, useAction, useRefresh } from './queries';
import { Panel } from '@/components/Section';

/** A whole number as typed: empty is no number, so the schema's own message is shown. */
const typed = (value: string) => (value.trim() === '' ? Number.NaN : Number(value));
const problemOf = (schema: z.ZodType, value: unknown) => {
  const checked = schema.safeParse(value);
  return checked.success ? undefined : checked.error.issues[0]?.message;
};

function Buyers({ row }: { row: PreorderTitleRow }) {
  const state = loaded(useQuery({ queryKey: [...keys.preorders, 'buyers', row.id], queryFn: () => preorderBuyers(row.id) }));
  const question = useQuestion<string>();
  const { act, busy } = useAction(runOrderAction, [...ORDER_CHANGES, keys.preorders]);
  return (
    <div className="mt-3 border-t border-slate-200 pt-3">
      <LoadState state={state} what="the buyers" />
      {state.status === 'ready' &&
        (state.data.length === 0 ? (
          <p className="text-sm text-slate-700">Nobody has pre-ordered it yet.</p>
        ) : (
          <ol className="space-y-2 text-sm" aria-label={`Buyers of ${row.title}, oldest first`}>
            {state.data.map((buyer) => (
              <li key={buyer.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-lg bg-slate-50 p-2">
                <a className="font-semibold text-navy underline" href={`#order/${buyer.id}`}>
                  Order {orderNumber(buyer.number)}
                </a>
                <span className="[overflow-wrap:anywhere]">{buyer.bought_by ?? buyer.email}</span>
                <span className="tabular-nums">
                  {countOf(buyer.quantity, 'copy', 'copies')}, {formatPrice(buyer.amount)}
                </span>
                <time className="text-slate-700" dateTime={buyer.paid_at}>
                  {formatDateTime(buyer.paid_at)}
                </time>
                {question.asking === buyer.id ? (
                  <span className="flex flex-wrap gap-2">
                    <ActionButton
                      ref={question.question}
                      className="btn bg-red-700 px-3 py-1 text-sm text-white hover:bg-red-800"
                      busy={busy}
                      onClick={() => act({ action: 'cancel', orderId: buyer.id })}
                    >
                      Confirm cancel and refund
                    </ActionButton>
                    <button type="button" className="btn-secondary px-3 py-1 text-sm" onClick={question.close}>
                      Keep it
                    </button>
                  </span>
                ) : (
                  <button ref={question.buttonFor(buyer.id)} type="button" className="btn-secondary px-3 py-1 text-sm" onClick={() => question.ask(buyer.id)}>
                    Cancel and refund
                  </button>
                )}
              </li>
            ))}
          </ol>
        ))}
    </div>
  );
}

interface FieldButton {
  label: string;
  className: string;
  toAction: (value: string) => PreorderAction;
}

/** One figure with its buttons, checked with the request's own schema before it is sent; the button pressed says what it does. */
function ActionField({
  label,
  type,
  initial,
  buttons,
  check,
  onDone,
}: {
  label: string;
  type: 'number' | 'date';
  initial: string;
  buttons: FieldButton[];
  /** What is wrong with the figure, for the action the button pressed would send. */
  check: (value: string, action: PreorderAction) => string | undefined;
  onDone: () => void;
}) {
  const id = useId();
  const [value, setValue] = useState(initial);
  // The figure saved comes back as `initial`: shown in the same field (not a new one), so focus stays on the button pressed.
  // A figure typed since the last send is kept: one read again (the save's, another window's) does not overwrite it.
  const [shown, setShown] = useState(initial);
  const edited = useRef(false);
  if (shown !== initial) {
    setShown(initial);
    if (!edited.current) setValue(initial);
  }
  const [error, setError] = useState<string | undefined>();
  // A refusal about the title as it stands, not the figure typed (its customs data missing, released already).
  const [refusal, setRefusal] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  // The button last pressed: while its figure is marked wrong, each edit checks the figure again for that action.
  const pressedLast = useRef(buttons[0]!);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    const pressed = buttons.find((button) => submitter instanceof HTMLButtonElement && button.label === submitter.value) ?? buttons[0]!;
    const action = pressed.toAction(value);
    pressedLast.current = pressed;
    edited.current = false;
    const problem = check(value, action);
    setError(problem);
    setRefusal(undefined);
    // A figure refused here is marked and focused as one the server refuses is (below).
    if (problem) {
      requestAnimationFrame(() => input.current?.focus());
      return;
    }
    setBusy(true);
    try {
      const { message, mailing } = await runPreorderAction(action);
      onDone();
      if (!mailing) return toast({ title: message });
      // Whoever waited for the book hears it can be pre-ordered, in batches, as a stock change sends them.
      toast({ title: message, description: await sendAll(mailing.id).catch((why: unknown) => `${why instanceof Error ? why.message : 'Sending failed.'} Resume sending it from Newsletter.`) });
    } catch (failure) {
      const message = failure instanceof Error ? failure.message : 'The change failed.';
      // Only a refusal of the figure sent (400) is marked on the field, focused once the field is described by it so a
      // screen reader says it. Any other is about the title (or the connection): said under the buttons, as an alert,
      // with focus left on the button pressed.
      if (!(failure instanceof BackOfficeError && failure.status === 400)) return setRefusal(message);
      setError(message);
      requestAnimationFrame(() => input.current?.focus());
    } finally {
      setBusy(false);
    }
  }
  return (
    <form onSubmit={submit} noValidate>
      {/* On a phone the buttons go under the field when they do not fit beside it. */}
      <div className="flex flex-wrap items-end gap-2">
        <div className="min-w-40 flex-1">
          <label htmlFor={id} className="label">
            {label}
          </label>
          <input
            ref={input}
            id={id}
            className="field"
            type={type}
            {...(type === 'number' ? { min: 0, step: 1, inputMode: 'numeric' as const } : {})}
            value={value}
            onChange={(event) => {
              // A refusal of the figure as it was goes once the figure changes, as a server's error does in the other
              // forms; a figure marked wrong is checked again as it is edited, its mark gone once it is right.
              const typed = event.target.value;
              edited.current = true;
              setValue(typed);
              setRefusal(undefined);
              if (error) setError(check(typed, pressedLast.current.toAction(typed)));
            }}
            {...invalidProps(id, error)}
          />
        </div>
        {buttons.map((button) => (
          <ActionButton key={button.label} type="submit" value={button.label} className={`${button.className} shrink-0 px-4`} busy={busy}>
            {button.label}
          </ActionButton>
        ))}
      </div>
      <FieldError fieldId={id} message={error} />
      {refusal && (
        <p role="alert" className="mt-1 text-sm font-semibold text-red-800">
          {refusal}
        </p>
      )}
    </form>
  );
}

function PreorderTitle({ row, onChanged }: { row: PreorderTitleRow; onChanged: () => void }) {
  const [showBuyers, setShowBuyers] = useState(false);
  const delivery = row.first_delivery === null ? '' : String(row.first_delivery);
  return (
    <section className="rounded-2xl bg-white p-4 ring-1 ring-slate-200" aria-label={`Pre-orders of ${row.title}`} data-testid="preorder-title">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <p className="font-semibold">{row.title}</p>
          <p className="text-sm text-slate-700">Out {formatLongDate(row.release_date)}</p>
          <p className="text-sm text-slate-700">
            Pre-ordered: <strong>{row.copies}</strong> of {row.allocation} ({row.left} left) · {countOf(row.orders, 'order')} · taken <strong>{formatPrice(row.money)}</strong>
          </p>
          <p className="text-sm text-slate-700">{row.waiting === 0 ? 'Nobody on its waiting list' : `${row.waiting} on its waiting list`}</p>
        </div>
        <button type="button" className="btn-secondary px-4 py-1.5 text-sm" aria-expanded={showBuyers} onClick={() => setShowBuyers(!showBuyers)}>
          {showBuyers ? 'Hide buyers' : 'Buyers'}
        </button>
      </div>
      {row.customs.missing.length > 0 && (
        <p role="alert" className="mt-2 rounded-lg bg-amber-50 p-2 text-sm text-amber-950 ring-1 ring-amber-400" data-testid="preorder-customs">
          {customsGapText(row.id, row.customs.abroad, fieldsOfColumns(row.customs.missing))} Until then it cannot be released.
        </p>
      )}
      {row.due_without_delivery && (
        <p role="alert" className="mt-2 rounded-lg bg-amber-50 p-2 text-sm text-amber-950 ring-1 ring-amber-400">
          Its release date has come, but no first delivery is entered, so it was not released. Enter the first delivery and press Release now.
        </p>
      )}
      <div className="mt-3 grid gap-3 lg:grid-cols-3 lg:items-start">
        <ActionField
          label="Allocation (copies)"
          type="number"
          initial={String(row.allocation)}
          buttons={[{ label: 'Save', className: 'btn-primary', toAction: (value) => ({ action: 'set', productId: row.id, allocation: typed(value), firstDelivery: row.first_delivery }) }]}
          check={(value) => problemOf(allocationSchema, typed(value)) ?? (typed(value) < row.copies ? `The allocation cannot be below the ${row.copies} copies already pre-ordered.` : undefined)}
          onDone={onChanged}
        />
        <ActionField
          label="First delivery (copies)"
          type="number"
          initial={delivery}
          buttons={[
            // Kept for the release date, when the daily release sets the stock from it; left empty, it is cleared.
            {
              label: 'Keep for the date',
              className: 'btn-secondary',
              toAction: (value) => ({ action: 'set', productId: row.id, allocation: row.allocation, firstDelivery: value.trim() === '' ? null : typed(value) }),
            },
            { label: 'Release now', className: 'btn-gold', toAction: (value) => ({ action: 'release', productId: row.id, firstDelivery: typed(value) }) },
          ]}
          check={(_, action) => problemOf(preorderActionSchema, action)}
          onDone={onChanged}
        />
        <ActionField
          label="Release date"
          type="date"
          initial={row.release_date}
          buttons={[{ label: 'Move the date', className: 'btn-secondary', toAction: (value) => ({ action: 'move_date', productId: row.id, releaseDate: value }) }]}
          check={(value) => problemOf(dateSchema, value)}
          onDone={onChanged}
        />
      </div>
      {showBuyers && <Buyers row={row} />}
    </section>
  );
}

/** What is still owed as pre-orders: paid, not yet shipped, copies and money. */
function OwedLine({ owed }: { owed: Owed }) {
  return (
    <p className="mt-3 font-semibold" data-testid="preorders-owed">
      Still owed as pre-orders: {countOf(owed.copies, 'copy', 'copies')} on {countOf(owed.orders, 'order')}, {formatPrice(owed.money)} paid
    </p>
  );
}

/** The Sales screen's line of what is still owed as pre-orders (counted in its sales when paid). */
export function PreordersOwed() {
  const state = loaded(useQuery({ queryKey: keys.preorders, queryFn: listPreorders }));
  return state.status === 'ready' ? <OwedLine owed={state.data.owed} /> : <LoadState state={state} what="the pre-orders owed" />;
}

export function PreordersPanel() {
  const state = loaded(useQuery({ queryKey: keys.preorders, queryFn: listPreorders }));
  const refresh = useRefresh();
  // A release makes orders to pack and sets the stock; an allocation may draw an availability mailing.
  const reload = () => void refresh(keys.preorders, ...ORDER_CHANGES, keys.newsletters);
  return (
    <Panel id="preorders-heading" title="Pre-orders">
      <p className="mt-1 text-sm text-slate-700">
        A book with a release date ahead is sold from its allocation, charged at checkout, and its orders wait here, not in To pack. Release now (or the release date, with the first delivery entered)
        sets the stock from the first delivery and sends every order waiting to To pack, oldest first, emailing each buyer once.
      </p>
      <LoadState state={state} what="pre-orders" />
      {state.status === 'ready' && (
        <>
          <OwedLine owed={state.data.owed} />
          {state.data.titles.length === 0 ? (
            <p className="mt-4 text-slate-700">No title is on pre-order. A book file with a release date ahead puts one here.</p>
          ) : (
            <div className="mt-4 space-y-3">
              {state.data.titles.map((row) => (
                <PreorderTitle key={row.id} row={row} onChanged={reload} />
              ))}
            </div>
          )}
        </>
      )}
    </Panel>
  );
}
