/**
 * `/cart?restore=<token>`, the link in a checkout reminder: asks the server for the order's books as they are
 * today, puts them in the cart, and says what happened. The parameter is taken off the address at once, so a
 * reload does not restore again over the shopper's changes.
 */
import { postJson } from '@/lib/post-json';
import { useEffect, useState } from 'react';
import { $cartLines } from './store';
import type { CartLine } from './cart';
import { RESTORE_MESSAGES, RESTORE_PARAM, RESTORE_PATH, restoreAnswer, restoreMessage, withRestoredLines } from './restore';

export type RestoreState = { status: 'idle' } | { status: 'restoring' } | { status: 'done'; message: string; ok: boolean };

export function useRestoreCart(): RestoreState {
  const [state, setState] = useState<RestoreState>({ status: 'idle' });
  useEffect(() => {
    const params = new URLSearchParams(window.location.search);
    const token = params.get(RESTORE_PARAM);
    if (token === null) return;
    params.delete(RESTORE_PARAM);
    const rest = params.toString();
    window.history.replaceState(window.history.state, '', `${window.location.pathname}${rest ? `?${rest}` : ''}`);
    setState({ status: 'restoring' });
    postJson(RESTORE_PATH, { token })
      .then(({ ok, body }) => {
        const answer = ok ? restoreAnswer.safeParse(body) : null;
        if (!answer?.success) return setState({ status: 'done', ok: false, message: RESTORE_MESSAGES.unknown });
        $cartLines.set(withRestoredLines<CartLine>($cartLines.get(), answer.data.lines));
        setState({ status: 'done', ok: answer.data.lines.length > 0, message: restoreMessage(answer.data) });
      })
      .catch(() => setState({ status: 'done', ok: false, message: 'We could not bring your books back just now. Please open the link again in a moment.' }));
  }, []);
  return state;
}
