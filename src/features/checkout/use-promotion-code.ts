/**
 * The checkout's promotion code: *Apply* asks the server (which prices the cart itself), the answer's discount
 * shows in the summary, and a code that stops applying when the cart changes (fewer copies, under its minimum)
 * is taken off with the reason. The server prices it again when the order is placed.
 */
import { useEffect, useEffectEvent, useState } from 'react';
import type { CartLine } from '@/features/cart/cart';
import { useSameWhile } from '@/lib/use-same-while';
import { checkCode } from './api';
import { codeRefusal, normaliseCode, type CodeAnswer } from './promotion-code';

export type AppliedCode = CodeAnswer & { status: 'ok'; code: string; discount: number };

/** `email`: the checkout's email so far, sent with each check (the shopper's own unpaid checkout does not hold the code from them). */
export function usePromotionCode(lines: readonly CartLine[], email = '') {
  const [typed, setTyped] = useState('');
  const [applied, setApplied] = useState<AppliedCode | null>(null);
  const [checking, setChecking] = useState(false);
  const [message, setMessage] = useState<string | null>(null);

  async function check(code: string): Promise<void> {
    setChecking(true);
    try {
      const answer = await checkCode(code, lines, email);
      if (answer.status === 'ok' && answer.code) {
        setApplied({ ...answer, status: 'ok', code: answer.code, discount: answer.discount ?? 0 });
        setMessage(null);
      } else {
        setApplied(null);
        setMessage(answer.message ?? codeRefusal(answer));
      }
    } catch (error) {
      setApplied(null);
      setMessage(error instanceof Error ? error.message : 'Could not check the code. Please try again.');
    } finally {
      setChecking(false);
    }
  }

  // The cart changed: the applied code is checked again against the new goods. The check reads the code
  // applied at that moment; applying one is not itself a change to react to.
  const cart = useSameWhile(lines, lines.map((l) => `${l.product.id}:${l.quantity}`).join(','));
  const checkAgain = useEffectEvent((changed: readonly CartLine[]) => {
    if (applied && changed.length > 0) void check(applied.code);
  });
  useEffect(() => checkAgain(cart), [cart]);

  return {
    typed,
    type: (value: string) => {
      setTyped(value);
      setMessage(null);
    },
    applied,
    checking,
    message,
    discount: applied?.discount ?? 0,
    apply: () => {
      const code = normaliseCode(typed);
      if (!code) return setMessage('Please enter a code.');
      void check(code);
    },
    remove: () => {
      setApplied(null);
      setMessage(null);
    },
    /** The server refused the code when the order was placed (used up or held meanwhile): off, with its reason. */
    refused: (answer: CodeAnswer) => {
      setApplied(null);
      setMessage(codeRefusal(answer));
    },
  };
}

export type PromotionCodeState = ReturnType<typeof usePromotionCode>;
