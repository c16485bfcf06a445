/**
 * The checkout's form: react-hook-form, validated with the request's own schemas (`order-fields.ts`) on Proceed.
 * A field's message goes when the shopper changes that field (each field clears its own); all are checked again
 * at the next Proceed. A signed-in shopper's email fills the field when it is empty. What was typed is kept for
 * the tab's session and comes back once the page is live; a new checkout starts on the visitor's country.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useEffectEvent, useRef } from 'react';
import { type Resolver, useForm } from 'react-hook-form';
import { ALLOWED_COUNTRIES, type CountryCode } from '@/config/constants';
import type { AddressFields } from './api';
import { readDraft, saveDraft, type CheckoutDraft } from './draft';
import { NO_GIFT, type GiftChoice } from './gift';
import { checkoutFormSchema, type CheckoutOrder } from './order-fields';
import { visitorCountry } from './visitor-country';

/** The form's values: the request's own shape (see `checkoutFormSchema`). */
export interface CheckoutFormValues {
  customerEmail: string;
  gift: GiftChoice;
  shippingDetails: AddressFields & { country: CountryCode };
  reminderConsent: boolean;
}

export const EMPTY_ADDRESS: CheckoutFormValues['shippingDetails'] = { fullName: '', phone: '', addressLine1: '', addressLine2: '', city: '', state: '', postalCode: '', country: 'AU' };

const EMPTY_FORM: CheckoutFormValues = { customerEmail: '', gift: NO_GIFT, shippingDetails: EMPTY_ADDRESS, reminderConsent: false };

const shippedTo = (country: unknown): CountryCode => ALLOWED_COUNTRIES.find((code) => code === country) ?? 'AU';

/** The form, its values as they are now, and whether the shopper has chosen a country (so no detected one applies). */
export function useCheckoutForm(signedInEmail: string | undefined) {
  const form = useForm<CheckoutFormValues, unknown, CheckoutOrder>({
    // The form holds every field from the start (EMPTY_FORM), a narrower type than the request's, where most are optional.
    resolver: zodResolver(checkoutFormSchema) as Resolver<CheckoutFormValues, unknown, CheckoutOrder>,
    defaultValues: EMPTY_FORM,
    // Checked on Proceed only; the page focuses the first problem itself (scrolled to the middle, after it is drawn).
    reValidateMode: 'onSubmit',
    shouldFocusError: false,
  });
  const { getValues, setValue } = form;
  // Once the shopper picks a country (or a draft brings one back), the visitor's detected country no longer applies.
  const countryChosen = useRef(false);

  useEffect(() => {
    if (signedInEmail && !getValues('customerEmail')) setValue('customerEmail', signedInEmail);
  }, [signedInEmail, getValues, setValue]);

  return { form, values: form.watch(), countryChosen };
}

/**
 * The form as the shopper left it in this tab: brought back once the page is live (the pre-rendered form is
 * empty), with the delivery option chosen then, and kept as it changes.
 */
export function useCheckoutDraft({ form, values, countryChosen }: ReturnType<typeof useCheckoutForm>, hydrated: boolean, delivery: { methodId: string | null; choose: (id: string) => void }) {
  const { getValues, setValue, reset } = form;
  const draftRead = useRef(false);

  const restoreDraft = useEffectEvent(() => {
    const draft = readDraft();
    if (draft?.address) countryChosen.current = true;
    if (draft) {
      reset({
        customerEmail: draft.email || getValues('customerEmail'),
        shippingDetails: { ...EMPTY_ADDRESS, ...draft.address, country: shippedTo(draft.address?.country) },
        gift: { ...NO_GIFT, ...draft.gift },
        reminderConsent: draft.reminderConsent === true,
      });
    }
    if (!draft?.address) {
      // A new checkout starts on the country the shop sees the visitor in, when it ships there.
      visitorCountry().then((country) => {
        if (!country || countryChosen.current) return;
        if (getValues('shippingDetails.country') !== country) setValue('shippingDetails.state', '');
        setValue('shippingDetails.country', country);
      });
    }
    if (draft?.methodId) delivery.choose(draft.methodId);
    draftRead.current = true;
  });
  useEffect(() => {
    if (hydrated) restoreDraft();
  }, [hydrated]);

  const { methodId } = delivery;
  const draft = JSON.stringify({ email: values.customerEmail, address: values.shippingDetails, methodId, gift: values.gift, reminderConsent: values.reminderConsent } satisfies CheckoutDraft);
  useEffect(() => {
    if (draftRead.current) saveDraft(JSON.parse(draft) as CheckoutDraft);
  }, [draft]);
}
