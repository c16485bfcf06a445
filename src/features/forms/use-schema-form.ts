/**
 * A form sent to /api/send-notification and checked with its request's own schema (react-hook-form with the zod
 * resolver): the function parses the same schema, so the words a person meets on the page are the server's.
 * The browser's checks come first (required, `type=email`); a problem they miss (a field of spaces only, an address
 * the shop does not take) is reported the same way, in the browser's bubble on the first such field, and its words
 * go when the person types there again.
 *
 * As with the hand-checked form (`use-notification-form.ts`): the bot-check script loads as the form appears,
 * Submit waits for hydration, one send at a time, and the fields are the browser's, so what was typed before the
 * island hydrated is read when the form takes them over (no default values, which would blank them).
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef, type SubmitEvent } from 'react';
import { get, useForm, type FieldErrors, type FieldValues } from 'react-hook-form';
import type { z } from '@/lib/zod';
import { useHydrated } from '@/lib/use-hydrated';
import { preloadHumanCheck } from './human-check';
import { type Answered, type DataOf, type Kind, sendNotification } from './use-notification-form';

/** Puts the first problem, in the form's order, in the browser's own bubble on its field. */
function reportFirst(errors: FieldErrors, form: HTMLFormElement): void {
  for (const element of Array.from(form.elements)) {
    if (!(element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement)) continue;
    const message = (get(errors, element.name) as { message?: string } | undefined)?.message;
    if (!message) continue;
    element.setCustomValidity(message);
    element.reportValidity();
    return;
  }
}

interface Options<K extends Kind> {
  type: K;
  /** The request's `data` schema, as the function parses it. */
  schema: z.ZodType<DataOf<K>, FieldValues>;
  /** The request's data from the checked values (a sign-up adds the page it was on). */
  request?: (values: DataOf<K>) => DataOf<K>;
  /** What the person is told once the server has answered (other than a refused bot-check); `reset` empties the form. */
  answered: (answer: Answered, reset: () => void, data: DataOf<K>) => void;
}

export function useSchemaForm<K extends Kind>({ type, schema, request = (values) => values, answered }: Options<K>) {
  const form = useForm<FieldValues, unknown, DataOf<K>>({ resolver: zodResolver(schema) });
  const hydrated = useHydrated();
  const sending = useRef(false);

  useEffect(() => preloadHumanCheck(), []);

  async function onSubmit(event: SubmitEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    const element = event.currentTarget;
    if (sending.current) return;
    sending.current = true;
    try {
      await form.handleSubmit(
        async (values) => {
          const data = request(values);
          const answer = await sendNotification(type, data, element);
          if (answer) answered(answer, () => form.reset(), data);
        },
        (errors) => reportFirst(errors, element),
      )(event);
    } finally {
      sending.current = false;
    }
  }

  return { form, busy: form.formState.isSubmitting, hydrated, onSubmit };
}
