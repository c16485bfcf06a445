/**
 * "Cancel my pre-order" on a pre-order's status page: asked once more, then /api/cancel-preorder cancels it for a
 * full refund (the back office's own cancel-and-refund). While it waits for its release only. The page then reads
 * the order again and says what happened (`onChanged`): the order may since have been cancelled, packed or shipped.
 */
import { postJson } from '@/lib/post-json';
import { useState } from 'react';
import { useQuestion } from '@/features/forms/use-question';
import * as z from '../../lib/zod-mini';

const answer = z.object({ message: z.optional(z.string()), error: z.optional(z.string()) });

export default function CancelPreorder({ token, onChanged }: { token: string; onChanged: (message: string) => void }) {
  const question = useQuestion();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const cancel = async () => {
    setBusy(true);
    setFailure(null);
    const sent = await postJson('/api/cancel-preorder', { token }).catch(() => null);
    const body = z.catch(answer, {}).parse(sent?.body);
    // Done, or cancelled, packed or shipped since the page was drawn (another tab, the shop): the page reads the
    // order again, without this question, and says so. It stays busy until then.
    if (sent?.ok || sent?.status === 409) return onChanged((sent.ok ? body.message : body.error) ?? 'Your pre-order is cancelled.');
    setBusy(false);
    setFailure(body.error ?? 'We could not cancel your pre-order just now. Please try again.');
    question.close();
  };
  return (
    <div className="mt-4">
      {question.asking ? (
        <div className="rounded-2xl bg-slate-50 p-4 ring-1 ring-slate-200">
          <p>Cancel this pre-order? Your payment is refunded in full, and the copies go to someone else.</p>
          <div className="mt-3 flex flex-wrap gap-3">
            <button ref={question.question} type="button" className="btn-primary" disabled={busy} onClick={cancel}>
              {busy ? 'Cancelling…' : 'Yes, cancel and refund'}
            </button>
            <button type="button" className="btn-secondary" disabled={busy} onClick={question.close}>
              Keep my pre-order
            </button>
          </div>
        </div>
      ) : (
        <button ref={question.button} type="button" className="btn-secondary" onClick={() => question.ask(true)}>
          Cancel my pre-order
        </button>
      )}
      {failure && (
        <p role="alert" className="mt-2 text-red-800">
          {failure}
        </p>
      )}
    </div>
  );
}
