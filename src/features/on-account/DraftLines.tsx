/**
 * The draft's books: each at its quantity price as the database prices it (the running totals' figures), unless the
 * publisher charges another price and says why; a book added or removed.
 */
import { type Control, type FieldErrors, get, type UseFormRegister, type UseFormSetValue, useFieldArray } from 'react-hook-form';
import { TextField } from '@/features/forms/fields';
import { formatPrice } from '@/lib/format';
import type { InvoiceDraft, InvoiceTotals } from './contract';
import { type DraftForm, money2, newLine } from './draft-form';
import { Fieldset } from './Fieldset';
import type { InvoiceBook } from './invoices-api';
import { INVOICE_RULES } from './rules';

interface DraftLinesProps {
  form: DraftForm;
  books: readonly InvoiceBook[];
  totals: InvoiceTotals | null;
  control: Control<DraftForm, unknown, InvoiceDraft>;
  register: UseFormRegister<DraftForm>;
  setValue: UseFormSetValue<DraftForm>;
  errors: FieldErrors<DraftForm>;
  fieldId: (name: string) => string;
}

export function DraftLines({ form, books, totals, control, register, setValue, errors, fieldId }: DraftLinesProps) {
  const { fields, append, remove } = useFieldArray({ control, name: 'lines' });
  const errorOf = (name: string) => get<object, { message?: string } | undefined>(errors, name)?.message;
  const unused = books.filter((b) => !form.lines.some((l) => l.productId === b.id));
  const bookOf = (productId: string) => books.find((b) => b.id === productId);
  const linesError = errorOf('lines.root') ?? errorOf('lines');

  return (
    <Fieldset legend="Books">
      <p className="-mt-2 text-sm text-slate-700">Each book at its quantity price. Change a price only with a reason: the school sees the price, you see the reason.</p>
      {fields.map((item, index) => {
        const line = form.lines[index] ?? item;
        const book = bookOf(line.productId);
        // The server's figures for this book, as last priced.
        const figures = totals?.lines.find((l) => l.product_id === line.productId);
        const key = (name: string) => `lines.${index}.${name}`;
        const changed = line.priceChanged && figures && figures.unit_price !== figures.list_unit_price;
        return (
          <div key={item.id} className="grid gap-3 rounded-xl bg-slate-50 p-3 ring-1 ring-slate-200" data-testid="invoice-line">
            <div className="flex flex-wrap items-end gap-3">
              <div className="min-w-48 flex-1">
                <p className="label">Book</p>
                <p className="font-semibold">{book?.title ?? line.productId}</p>
              </div>
              <TextField id={fieldId(key('quantity'))} label="Copies" inputMode="numeric" className="w-28" error={errorOf(key('quantity'))} {...register(`lines.${index}.quantity`)} />
              <div className="min-w-40">
                <p className="label">Price each</p>
                <p>
                  {formatPrice(changed ? figures.unit_price : (figures?.list_unit_price ?? 0))}
                  <span className="text-sm text-slate-700">{changed ? ` changed from ${formatPrice(figures.list_unit_price)}` : ' quantity price'}</span>
                </p>
              </div>
              <p className="ml-auto text-right">
                <span className="block text-sm text-slate-700">Amount</span>
                <strong>{formatPrice(figures?.amount ?? 0)}</strong>
              </p>
            </div>
            <label className="flex items-center gap-2 text-sm font-semibold">
              <input
                type="checkbox"
                className="h-4 w-4"
                {...register(`lines.${index}.priceChanged`, {
                  onChange: (event: { target: HTMLInputElement }) => {
                    // Starts from the quantity price, with no reason yet.
                    setValue(`lines.${index}.unitPrice`, event.target.checked ? money2(figures?.list_unit_price ?? 0) : '');
                    setValue(`lines.${index}.priceReason`, '');
                  },
                })}
              />
              Charge another price for {book?.title ?? 'this book'}
            </label>
            {line.priceChanged && (
              <div className="grid gap-3 sm:grid-cols-[10rem_1fr]">
                <TextField id={fieldId(key('unitPrice'))} label="Price each (AUD)" inputMode="decimal" error={errorOf(key('unitPrice'))} {...register(`lines.${index}.unitPrice`)} />
                <TextField
                  id={fieldId(key('priceReason'))}
                  label="Reason for the price"
                  maxLength={INVOICE_RULES.reasonMaxLength}
                  error={errorOf(key('priceReason'))}
                  {...register(`lines.${index}.priceReason`)}
                />
              </div>
            )}
            {fields.length > 1 && (
              <div>
                <button type="button" className="btn-secondary px-3 py-1.5 text-sm" onClick={() => remove(index)}>
                  Remove {book?.title ?? 'this book'}
                </button>
              </div>
            )}
          </div>
        );
      })}
      {linesError && <p className="text-sm font-semibold text-red-800">{linesError}</p>}
      {unused.length > 0 && (
        <div className="flex flex-wrap gap-2">
          {unused.map((b) => (
            <button key={b.id} type="button" className="btn-secondary px-3 py-1.5 text-sm" onClick={() => append(newLine(b.id))}>
              Add {b.title}
            </button>
          ))}
        </div>
      )}
    </Fieldset>
  );
}
