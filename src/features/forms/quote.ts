/**
 * The quote request as the form sends it (type `quote` to /api/send-notification) and the bounds the form holds
 * its fields to.
 */
export const QUOTE_LIMITS = {
  organisationMaxLength: 200,
  phoneMaxLength: 40,
  addressLineMaxLength: 200,
  poNumberMaxLength: 60,
  noteMaxLength: 2000,
  /** The most copies of one book a quote asks for. */
  maxCopies: 10_000,
} as const;

export interface QuoteRequestData {
  organisation: string;
  contactName: string;
  email: string;
  phone: string;
  address: { line1: string; line2?: string | undefined; city: string; state: string; postcode: string; country: string };
  lines: { productId: string; quantity: number }[];
  neededBy?: string | undefined;
  poNumber?: string | undefined;
  note?: string | undefined;
}
