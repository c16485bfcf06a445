/**
 * An order action as the back office sends it to /api/admin-order (ship, deliver, cancel and refund, a part refund,
 * a changed address, …). The function parses the request with `orderActionSchema`; the order's forms check what
 * the publisher typed with the same pieces (`shipForm`, `refundForm`, `addressSchema`), so both say the same thing.
 */
import { z } from '@/lib/zod';
import { BACK_OFFICE } from '@/config/constants';
import { checkShipment } from '@/features/shipping/shipment';
import { formatPrice } from '@/lib/format';
import { singleLine } from '@/lib/schemas';
import { MAX_REFUND_CENTS, parseRefundAmount } from './refund';

const refundReason = singleLine({ error: 'Give a reason for the refund.' })
  .min(1, 'Give a reason for the refund.')
  .max(BACK_OFFICE.refundReasonMaxLength, `The reason can be at most ${BACK_OFFICE.refundReasonMaxLength} characters.`);

const ADDRESS_KEYS = ['addressLine1', 'addressLine2', 'city', 'state', 'postalCode', 'phone'] as const;
/** A corrected delivery address: its lines as typed (the country stays the order's). */
export const addressSchema = z.object(
  Object.fromEntries(ADDRESS_KEYS.map((field) => [field, z.string({ error: `address.${field} must be text.` }).max(200, 'Each address line is one line of up to 200 characters.')])) as Record<
    (typeof ADDRESS_KEYS)[number],
    z.ZodString
  >,
  { error: 'Give the address as its fields.' },
);
export type AddressInput = z.infer<typeof addressSchema>;

/** A shipment as typed: Australia Post with its number, or another carrier by name with theirs. */
const shipmentInput = z.discriminatedUnion('carrier', [
  z.object({ carrier: z.literal('auspost'), trackingNumber: z.string().max(100) }),
  z.object({ carrier: z.literal('other'), carrierName: z.string().max(100), trackingNumber: z.string().max(100) }),
]);
/** The shipment to record: checked as `checkShipment` checks it, cleaned of spaces and case. */
const shipmentSchema = shipmentInput.transform((input, ctx) => {
  const checked = checkShipment(input);
  if ('shipment' in checked) return checked.shipment;
  ctx.addIssue({ code: 'custom', message: checked.error });
  return z.NEVER;
});

const orderId = z.uuid('orderId must be an order id');
export const orderActionSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('ship'), orderId, shipment: shipmentSchema }),
  z.object({ action: z.literal('deliver'), orderId }),
  z.object({ action: z.literal('cancel'), orderId }),
  z.object({ action: z.literal('retry_refund'), orderId }),
  z.object({ action: z.literal('resend_confirmation'), orderId }),
  z.object({ action: z.literal('send_to_platform'), orderId }),
  z.object({ action: z.literal('change_address'), orderId, address: addressSchema }),
  z.object({
    action: z.literal('refund_part'),
    orderId,
    amountCents: z
      .number({ error: 'amountCents must be the amount in cents.' })
      .int('amountCents must be a whole number of cents.')
      .min(1, 'The amount must be more than zero.')
      .max(MAX_REFUND_CENTS, 'That amount is more than any order.'),
    reason: refundReason,
  }),
]);
export type OrderAction = z.infer<typeof orderActionSchema>;
/** An order action as the back office sends it. */
export type OrderActionRequest = z.input<typeof orderActionSchema>;

/** The carrier as the ship forms hold it: Australia Post, or another carrier by name. */
const carrierTyped = { carrier: z.enum(['auspost', 'other']), carrierName: z.string() };
type CarrierTyped = { carrier: 'auspost' | 'other'; carrierName: string };

/** A parcel's shipment from the form's carrier and its tracking number, as the function takes it. */
export const shipmentOf = ({ carrier, carrierName }: CarrierTyped, trackingNumber: string): z.input<typeof shipmentInput> =>
  carrier === 'auspost' ? { carrier, trackingNumber } : { carrier, carrierName, trackingNumber };

/** The ship form: a carrier and a tracking number, a problem shown on the field it is about. */
export const shipForm = z.object({ ...carrierTyped, trackingNumber: z.string() }).superRefine((typed, ctx) => {
  const checked = checkShipment(shipmentOf(typed, typed.trackingNumber));
  if ('error' in checked) ctx.addIssue({ code: 'custom', message: checked.error, path: [checked.field] });
});
export type ShipFormValues = z.input<typeof shipForm>;

/**
 * Several parcels at once: one carrier, a tracking number per order (by id), each checked as the ship form checks it;
 * a problem with the carrier's name is said on its field.
 */
export const parcelsForm = z.object({ ...carrierTyped, numbers: z.record(z.string(), z.string()) }).superRefine((typed, ctx) => {
  for (const [orderId, trackingNumber] of Object.entries(typed.numbers)) {
    const checked = checkShipment(shipmentOf(typed, trackingNumber));
    if ('error' in checked) ctx.addIssue({ code: 'custom', message: checked.error, path: checked.field === 'carrierName' ? ['carrierName'] : ['numbers', orderId] });
  }
});
export type ParcelsFormValues = z.input<typeof parcelsForm>;

/**
 * The part-refund form: the amount as typed in dollars (read by `parseRefundAmount`, never more than `leftCents`,
 * what is left of the payment) and the reason the customer reads; the amount goes on as cents.
 */
export const refundForm = (leftCents: number) =>
  z.object({
    amount: z.string().transform((typed, ctx) => {
      const parsed = parseRefundAmount(typed);
      const problem = 'error' in parsed ? parsed.error : parsed.cents > leftCents ? `You can refund at most ${formatPrice(leftCents / 100)} on this order: that is what is left of its payment.` : null;
      if (problem === null && 'cents' in parsed) return parsed.cents;
      ctx.addIssue({ code: 'custom', message: problem ?? '' });
      return z.NEVER;
    }),
    reason: refundReason,
  });
