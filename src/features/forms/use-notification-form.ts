/**
 * What the sign-up and contact forms share. The back-in-stock form (on every product page, where no form library
 * is downloaded) checks its one field by hand here; the newsletter and contact forms check theirs with their
 * request's schema (`use-schema-form.ts`); both send through `sendNotification`.
 *
 * The hand-checked form: the bot-check script loaded as the form appears,
 * Submit held until hydration (a native submit before it would put the visitor's details in the address bar),
 * one send at a time with its busy state, the fields checked, a bot-check token asked for, and the request read
 * from the form as it is at that moment, so what was typed before the island hydrated is what is sent. With a
 * bot-check configured, no token means no request (the server would refuse it); a token the server refuses says
 * "Verification failed" on every form; every other outcome is the form's own to tell.
 */
import { useEffect, useRef, useState, type SubmitEvent } from 'react';
import { HUMAN_CHECK_ACTIONS } from '@/config/constants';
import { useHydrated } from '@/lib/use-hydrated';
import { checkFields, verificationFailed } from './fields';
import { humanCheck, preloadHumanCheck } from './human-check';
import type { NotificationRequest } from './notification';
import { type SubmitAnswer, submitForm } from './submit';

export type Kind = NotificationRequest['type'];
export type DataOf<K extends Kind> = Extract<NotificationRequest, { type: K }>['data'];
/** The server's answer to a request whose bot-check passed. */
export type Answered = SubmitAnswer & { outcome: Exclude<SubmitAnswer['outcome'], 'refused'> };

export interface NotificationFormOptions<K extends Kind> {
  type: K;
  /** Checks the fields before anything is sent (false: not sent); by default the browser's checks and `checkFields`. */
  check?: (form: HTMLFormElement) => boolean;
  /** The request's data, read from the form's fields as they are now. */
  read: (form: HTMLFormElement) => DataOf<K>;
  /** What the visitor is told, once the server has answered (other than a refused bot-check). */
  answered: (answer: Answered, form: HTMLFormElement, data: DataOf<K>) => void;
}

export function useNotificationForm<K extends Kind>({ type, check = checkFields, read, answered }: NotificationFormOptions<K>) {
  const [busy, setBusy] = useState(false);
  const busyRef = useRef(false);
  const hydrated = useHydrated();

  useEffect(() => preloadHumanCheck(), []);

  async function onSubmit(event: SubmitEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    const form = event.currentTarget;
    if (busyRef.current || !check(form)) return;
    busyRef.current = true;
    setBusy(true);
    try {
      const data = read(form);
      const answer = await sendNotification(type, data, form);
      if (answer) answered(answer, form, data);
    } finally {
      busyRef.current = false;
      setBusy(false);
    }
  }

  return { busy, hydrated, onSubmit };
}

/**
 * Sends a form's request behind the bot-check: a token is asked for first, and with a bot-check configured no token
 * means no request. A refused token says "Verification failed" (and answers null); every other answer is the form's
 * to tell.
 */
export async function sendNotification<K extends Kind>(type: K, data: DataOf<K>, form: HTMLFormElement): Promise<Answered | null> {
  const check = await humanCheck();
  const token = await check.getToken(HUMAN_CHECK_ACTIONS[type], form);
  if (!token && check.enabled) {
    verificationFailed();
    return null;
  }
  const answer = await submitForm({ type, data, ...(token && { turnstileToken: token }) } as NotificationRequest);
  if (answer.outcome !== 'refused') return { ...answer, outcome: answer.outcome };
  verificationFailed();
  return null;
}
