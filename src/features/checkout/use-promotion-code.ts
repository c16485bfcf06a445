/**
 * The checkout's promotion code: *Apply* asks the server (which prices the cart itself), the answer's discount
 * shows in the summary, and a code that stops applying when the cart changes (fewer copies, under its minimum)
 * is taken off with the reason. The server prices it again when the order is placed.
 *
 * An applied code stays with the checkout: it is kept in local storage (`$appliedCode`), so going back to the cart,
 * a reload or a second tab finds it applied again (checked anew against the cart), until the shopper removes it
 * or it stops applying (ended, used up, switched off); then it comes off and the shopper is told why.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useEffectEvent, useRef, useState } from 'react';
import type { CartLine } from '@/features/cart/cart';
import { useSameWhile } from '@/lib/use-same-while';
import { checkCode } from './api';
import { $appliedCode } from './applied-code';
import { codeRefusal, normaliseCode, type CodeAnswer } from './promotion-code';

export type AppliedCode = CodeAnswer & { status: 'ok'; code: string; discount: number };

/** What the shopper is told when a code applied earlier no longer applies. */
export const keptCodeRefusal = (code: string, reason: string) => `Code ${code} was removed: ${reason}`;

/** `email`: the checkout's email so far, sent with each check as the endpoint's contract has it; the server no longer reads it (a code's use is taken only at payment). */
export function usePromotionCode(lines: readonly CartLine[], email = '') {
  const [typed, setTyped] = useState('');
  const [applied, setApplied] = useState<AppliedCode | null>(null);
  const [checking, setChecking] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const kept = useStore($appliedCode);
  const cartKey = lines.map((l) => `${l.product.id}:${l.quantity}`).join(',');
  /** The code and cart last checked, so a code applied here is not asked about again when it is kept. */
  const checked = useRef('');

  /** `wasApplied`: the code was on the order already (kept, or the cart changed), so its refusal says it came off. */
  async function check(code: string, wasApplied: boolean): Promise<void> {
    checked.current = `${code}|${cartKey}`;
    setChecking(true);
    try {
      const answer = await checkCode(code, lines, email);
      if (answer.status === 'ok' && answer.code) {
        setApplied({ ...answer, status: 'ok', code: answer.code, discount: answer.discount ?? 0 });
        setMessage(null);
        checked.current = `${answer.code}|${cartKey}`;
        $appliedCode.set(answer.code);
      } else {
        setApplied(null);
        const reason = answer.message ?? codeRefusal(answer) ?? '';
        setMessage(wasApplied ? keptCodeRefusal(code, reason) : reason);
        if ($appliedCode.get() === code) $appliedCode.set('');
      }
    } catch (error) {
      // Not reached or not answered: the code stays kept, to be checked again on the next change or visit.
      setApplied(null);
      setMessage(error instanceof Error ? error.message : 'Could not check the code. Please try again.');
    } finally {
      setChecking(false);
    }
  }

  // The kept code is checked against the cart: on arrival (a reload, back from the cart), when the cart changes,
  // and when another tab applies one. Removed in another tab: off here too. The check reads the state at that
  // moment; applying one here is not itself a change to react to.
  const cart = useSameWhile(lines, cartKey);
  const follow = useEffectEvent((changed: readonly CartLine[], code: string) => {
    if (changed.length === 0) return;
    if (!code) {
      if (applied) setApplied(null);
      return;
    }
    if (checked.current !== `${code}|${cartKey}`) void check(code, true);
  });
  useEffect(() => follow(cart, kept), [cart, kept]);

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
      void check(code, false);
    },
    remove: () => {
      checked.current = '';
      setApplied(null);
      setMessage(null);
      $appliedCode.set('');
    },
    /** The server refused the code when the order was placed (it stopped applying meanwhile): off, with its reason. */
    refused: (answer: CodeAnswer) => {
      setApplied(null);
      setMessage(codeRefusal(answer));
      $appliedCode.set('');
    },
  };
}

export type PromotionCodeState = ReturnType<typeof usePromotionCode>;
