/**
 * The editor's running totals, priced by the server as the publisher types (the `price` action of
 * /api/admin-invoice, which asks the database's `invoice_totals`, the function the save stores). Asked 300 ms after
 * the last change to what prices the draft; the figures shown stay until the new ones arrive, so nothing flickers,
 * and an answer overtaken by a later change is dropped.
 */
import { useEffect, useRef, useState } from 'react';
import { postAsStaff } from '@/features/admin/api';
import { type InvoiceDetail, type InvoicePriceDraft, type InvoiceTotals, invoiceActionAnswerSchema } from './contract';
import { type DraftForm, formOf, priceDraftOf } from './draft-form';

const DEBOUNCE_MS = 300;

async function priceInvoiceDraft(draft: InvoicePriceDraft): Promise<InvoiceTotals | null> {
  return invoiceActionAnswerSchema.parse(await postAsStaff('/api/admin-invoice', { action: 'price', draft })).totals ?? null;
}

/** A saved draft's figures as the database stored them, which is what it would price them at now. */
function savedTotals(invoice: InvoiceDetail): InvoiceTotals {
  return {
    lines: invoice.lines.map((l) => ({ product_id: l.product_id, title: l.title, quantity: l.quantity, list_unit_price: l.list_unit_price, unit_price: l.unit_price, amount: l.amount })),
    subtotal: invoice.subtotal,
    shipping: { kind: invoice.shipping_kind === 'typed' ? 'typed' : 'rate_card', name: invoice.shipping_name, amount: invoice.shipping_amount, reason: invoice.shipping_reason },
    total: invoice.total,
    gst: invoice.gst,
    gst_applies: invoice.gst_applies,
  };
}

const keyOf = (draft: InvoicePriceDraft | null) => (draft ? JSON.stringify(draft) : '');

interface DraftTotals {
  totals: InvoiceTotals | null;
  /** A newer answer is on its way. */
  pricing: boolean;
  /** Why the last pricing failed, in words. */
  problem: string | null;
}

export function useDraftTotals(form: DraftForm, invoice: InvoiceDetail | null): DraftTotals {
  const request = priceDraftOf(form);
  const key = keyOf(request);
  const [state, setState] = useState<DraftTotals & { key: string }>(() =>
    invoice ? { key: keyOf(priceDraftOf(formOf(invoice))), totals: savedTotals(invoice), pricing: false, problem: null } : { key: '', totals: null, pricing: false, problem: null },
  );
  const asked = useRef(0);

  // Asked again only when what prices the draft changes (its JSON key), not on every keystroke elsewhere.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key is the request and the state it is compared with.
  useEffect(() => {
    const ask = ++asked.current;
    if (key === state.key) {
      // Back to what is shown: an answer on its way is dropped.
      if (state.pricing) setState((before) => ({ ...before, pricing: false }));
      return;
    }
    if (!request) {
      setState({ key, totals: null, pricing: false, problem: null });
      return;
    }
    setState((before) => ({ ...before, pricing: true }));
    const timer = window.setTimeout(() => {
      priceInvoiceDraft(request).then(
        (totals) => {
          if (ask === asked.current) setState({ key, totals, pricing: false, problem: null });
        },
        (error: unknown) => {
          if (ask === asked.current) setState((before) => ({ ...before, key, pricing: false, problem: error instanceof Error ? error.message : String(error) }));
        },
      );
    }, DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [key]);

  return { totals: state.totals, pricing: state.pricing, problem: state.problem };
}
