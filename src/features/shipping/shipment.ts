/**
 * A shipment as the publisher enters it: Australia Post with a checked article number, or another carrier
 * named in free text. Shared by the back-office form and the server function, so both say the same thing
 * (plain code, so the form ships no validation library).
 */
import { BACK_OFFICE, SHIPPING } from '@/config/constants';
import { toSingleLine } from '@/lib/text';

const AUSPOST = SHIPPING.defaultCarrier;

export type ShipmentInput = { carrier: 'auspost'; trackingNumber: string } | { carrier: 'other'; carrierName: string; trackingNumber: string };
export interface Shipment {
  carrier: string;
  trackingNumber: string;
}

/** International (S10) article numbers: two letters, eight serial digits, a check digit, the country's two letters. */
const S10 = /^[A-Z]{2}(\d{8})(\d)[A-Z]{2}$/;
const S10_WEIGHTS = [8, 6, 4, 2, 3, 5, 9, 7] as const;

/** The check digit of an S10 serial (8 digits): 11 minus the weighted sum mod 11, where 10 is written 0 and 11 is 5. */
export function s10CheckDigit(serial: string): number {
  const sum = [...serial].reduce((total, digit, i) => total + Number(digit) * S10_WEIGHTS[i]!, 0);
  const check = 11 - (sum % 11);
  return check === 10 ? 0 : check === 11 ? 5 : check;
}

/** Whether an Australia Post number (spaces removed, uppercase) is one Australia Post could have issued. */
export function isAuspostTrackingNumber(trackingNumber: string): boolean {
  if (!BACK_OFFICE.auspostTrackingPattern.test(trackingNumber)) return false;
  const s10 = trackingNumber.match(S10);
  return !s10 || s10CheckDigit(s10[1]!) === Number(s10[2]);
}

/** The shipment to record, or the sentence that says what to fix and the field it is about. */
export function checkShipment(input: ShipmentInput): { shipment: Shipment } | { error: string; field: 'carrierName' | 'trackingNumber' } {
  if (input.carrier === 'auspost') {
    const trackingNumber = input.trackingNumber.replace(/\s+/g, '').toUpperCase();
    if (!BACK_OFFICE.auspostTrackingPattern.test(trackingNumber)) {
      return { error: 'An Australia Post tracking number is 10 to 23 letters and digits, e.g. 33ABC1234567 or RR123456785AU.', field: 'trackingNumber' };
    }
    if (!isAuspostTrackingNumber(trackingNumber)) {
      return {
        error: `${trackingNumber} is not a valid international tracking number: its check digit (the last digit) does not match. Copy it again from the label, e.g. RR123456785AU.`,
        field: 'trackingNumber',
      };
    }
    return { shipment: { carrier: AUSPOST, trackingNumber } };
  }
  // Both go into the shipping email and the order's history: one line each.
  const carrier = toSingleLine(input.carrierName);
  const trackingNumber = toSingleLine(input.trackingNumber);
  if (carrier.length < 2) return { error: 'Name the carrier.', field: 'carrierName' };
  if (carrier.length > 60) return { error: 'The carrier name is too long.', field: 'carrierName' };
  if (trackingNumber.length < 3) return { error: 'Enter the tracking number.', field: 'trackingNumber' };
  if (trackingNumber.length > 64) return { error: 'The tracking number is too long.', field: 'trackingNumber' };
  return { shipment: { carrier, trackingNumber } };
}

/** The carrier's tracking page for a number, when the carrier is one we know. */
export function trackingUrl(carrier: string, trackingNumber: string): string | null {
  return carrier === AUSPOST ? `${BACK_OFFICE.auspostTrackingUrl}${encodeURIComponent(trackingNumber)}` : null;
}
