/**
 * The checkout's fields as both sides parse them: the email, the delivery address, the gift choices and the
 * reminder consent. `create-checkout` parses its request with these schemas, and the checkout page's form
 * validates with the same ones (react-hook-form's zod resolver), so each rule and its message is written once;
 * the database checks the stored order again. Nothing here but the business constants and the checkout's own
 * rules, so the page downloads no server code with it.
 */
import { z } from '@/lib/zod';
import { ALLOWED_COUNTRIES, LIMITS } from '@/config/constants';
import { emailAddress, singleLine } from '@/lib/schemas';
import { addressFormat, addressProblem, auStateOfPostcode } from './address-format';
import { CHECKOUT_MESSAGES } from './contract';
import { GIFT_MESSAGES, giftMessageProblem, NO_GIFT, normaliseGiftMessage } from './gift';

/** Every text the order stores is one line: it is printed on packing slips and put in emails. */
const text = (max: number) => singleLine().max(max);
export const email = emailAddress({ invalid: CHECKOUT_MESSAGES.email });
export const country = z.enum(ALLOWED_COUNTRIES, { error: `We ship to ${ALLOWED_COUNTRIES.join(', ')} only.` });

/** The address as typed, each field cleaned to one line. */
const addressFields = {
  fullName: text(LIMITS.nameMaxLength).optional().default(''),
  phone: text(40).optional().default(''),
  addressLine1: text(LIMITS.addressFieldMaxLength).min(1, CHECKOUT_MESSAGES.address),
  addressLine2: text(LIMITS.addressFieldMaxLength).optional().default(''),
  city: text(100).min(1, CHECKOUT_MESSAGES.address),
  state: text(100).optional().default(''),
  postalCode: text(20).optional().default(''),
  country,
};

/** The delivery fields as the request carries them: the address, and the delivery option chosen. */
export const shippingFieldsSchema = z.object({
  ...addressFields,
  email: email.optional(),
  shippingMethod: z.looseObject({ id: z.string().trim().min(1, CHECKOUT_MESSAGES.method).max(100) }, { error: CHECKOUT_MESSAGES.method }),
});

type Address = { state: string; postalCode: string; country: string; addressLine1: string; city: string };

/**
 * An Australian label needs the state: when the shopper left it out, the postcode says which it is. Listed
 * regions (states, provinces) are stored as their codes.
 */
function asDelivered<T extends Address>(details: T): T {
  const state = details.state || (details.country === 'AU' ? (auStateOfPostcode(details.postalCode) ?? '') : '');
  return { ...details, state: addressFormat(details.country).region.options ? state.toUpperCase() : state, postalCode: details.postalCode.toUpperCase() };
}

/** The first field of the address the post could not deliver to, marked with what to tell the shopper. */
function deliverable(details: Address, context: z.RefinementCtx) {
  const problem = addressProblem(details);
  if (problem) context.addIssue({ code: 'custom', path: [problem.field], message: problem.message });
}

/** The delivery fields as an address the post can deliver to. */
export const shippingDetailsSchema = shippingFieldsSchema.transform(asDelivered).superRefine(deliverable);

/**
 * A gift: the message for the recipient (plain text, see `giftMessageProblem`) and whether the parcel leaves
 * prices out (it does unless the buyer asked for them). None of it means anything on an order that is not a gift,
 * so there the message is not judged and everything is dropped.
 */
export const giftSchema = z
  .object({
    isGift: z.boolean({ error: 'isGift must be true or false.' }).default(false),
    message: z.string().max(2000).default('').transform(normaliseGiftMessage),
    // A gift's parcel carries no prices unless the buyer asked for them.
    hidePrices: z.boolean({ error: 'hidePrices must be true or false.' }).default(true),
    hideSender: z.boolean({ error: 'hideSender must be true or false.' }).default(false),
    buyerName: singleLine().max(LIMITS.nameMaxLength, `Please keep your name to ${LIMITS.nameMaxLength} characters or fewer.`).default(''),
  })
  .superRefine((gift, context) => {
    const problem = gift.isGift ? giftMessageProblem(gift.message) : null;
    if (problem) context.addIssue({ code: 'custom', path: ['message'], message: problem });
  })
  .transform((gift) => (gift.isGift ? gift : NO_GIFT))
  .optional()
  .transform((gift) => gift ?? NO_GIFT);

/** A gift's label carries the recipient's name: the payer's name from the card would be the wrong one. */
export function giftRecipientNamed(order: { gift: { isGift: boolean }; shippingDetails: { fullName: string } }, context: z.RefinementCtx) {
  if (order.gift.isGift && !order.shippingDetails.fullName) context.addIssue({ code: 'custom', path: ['shippingDetails', 'fullName'], message: GIFT_MESSAGES.recipient });
}

/** The shopper ticked the shop's own box: one reminder if they leave the payment page unpaid. Never assumed. */
export const reminderConsentSchema = z.boolean({ error: 'reminderConsent must be true or false.' }).optional().default(false);

/**
 * The checkout page's form: what the shopper types, in the request's own shape, so a refusal's path
 * (`shippingDetails.postalCode`) names the form's field. The delivery option, the cart and the code are chosen
 * beside the form, not typed in it.
 */
export const checkoutFormSchema = z
  .object({
    customerEmail: email,
    gift: giftSchema,
    shippingDetails: z.object(addressFields).transform(asDelivered).superRefine(deliverable),
    reminderConsent: reminderConsentSchema,
  })
  .superRefine(giftRecipientNamed);

export type CheckoutFormInput = z.input<typeof checkoutFormSchema>;
/** What the form hands on once its values pass: cleaned, the state filled in, a gift's choices or none. */
export type CheckoutOrder = z.output<typeof checkoutFormSchema>;
