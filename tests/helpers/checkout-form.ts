/**
 * The checkout page's check before anything is sent, as the page runs it: the form's values through the zod
 * resolver and the request's schema, then the first problem in the form's order (the one focused and toasted).
 */
import { zodResolver } from '@hookform/resolvers/zod';
import type { AddressFields } from '../../src/features/checkout/api';
import type { GiftChoice } from '../../src/features/checkout/gift';
import { type CheckoutFormInput, checkoutFormSchema } from '../../src/features/checkout/order-fields';
import { firstProblem } from '../../src/features/checkout/validation';

export async function checkoutFormProblem(input: { email: string; address: AddressFields; gift?: GiftChoice }) {
  // Any country typed here, as a request could carry one: the schema is what refuses it.
  const values = { customerEmail: input.email, shippingDetails: input.address, gift: input.gift, reminderConsent: false } as CheckoutFormInput;
  const { errors } = await zodResolver(checkoutFormSchema)(values, undefined, { fields: {}, shouldUseNativeValidation: false });
  return firstProblem(errors);
}
