/**
 * "Cancel my pre-order" on a pre-order's status page: asked once more, then /api/cancel-preorder cancels it for a
 * full refund (the back office's own cancel-and-refund). While it waits for its release only; the page reloads
 * the order after, so it shows the cancellation.
 */
import { postJson } from '@/lib/post-json';
import { useState } from 'react';
import * as z from '../../lib/zod-mini';

type State = { step: 'idle' } | { step: 'asking' } | { step: 'busy' } | { step: 'done'; message: string } | { step: 'failed'; message: string };

const answer = z.object({ message: z.optional(z.string()), error: z.optional(z.string()) });

export default function CancelPreorder({ token, onCancelled }: { token: string; onCancelled: () => void }) {
  const [state, setState] = useState<State>({ step: 'idle' });
  const cancel = async () => {
    setState({ step: 'busy' });
    try {
      const sent = await postJson('/api/cancel-preorder', { token });
      const body = z.catch(answer, {}).parse(sent.body);
      if (!sent.ok) {
        setState({ step: 'failed', message: body.error ?? 'We could not cancel your pre-order just now. Please try again.' });
        // Cancelled, packed or shipped since the page was drawn (another tab, the shop): show the order as it now is.
        if (sent.status === 409) onCancelled();
        return;
      }
      setState({ step: 'done', message: body.message ?? 'Your pre-order is cancelled.' });
      onCancelled();
    } catch {
      setState({ step: 'failed', message: 'We could not cancel your pre-order just now. Please try again.' });
    }
  };
  if (state.step === 'done') {
    return (
      <p role="status" className="mt-4 font-semibold">
        {state.message}
      </p>
    );
  }
  return (
    <div className="mt-4">
      {state.step === 'asking' || state.step === 'busy' ? (
        <div className="rounded-2xl bg-slate-50 p-4 ring-1 ring-slate-200">
          <p>Cancel this pre-order? Your payment is refunded in full, and the copies go to someone else.</p>
          <div className="mt-3 flex flex-wrap gap-3">
            <button type="button" className="btn-primary" disabled={state.step === 'busy'} onClick={cancel}>
              {state.step === 'busy' ? 'Cancelling…' : 'Yes, cancel and refund'}
            </button>
            <button type="button" className="btn-secondary" disabled={state.step === 'busy'} onClick={() => setState({ step: 'idle' })}>
              Keep my pre-order
            </button>
          </div>
        </div>
      ) : (
        <button type="button" className="btn-secondary" onClick={() => setState({ step: 'asking' })}>
          Cancel my pre-order
        </button>
      )}
      {state.step === 'failed' && (
        <p role="alert" className="mt-2 text-red-800">
          {state.message}
        </p>
      )}
    </div>
  );
}
