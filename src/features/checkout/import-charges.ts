/**
 * What a buyer abroad may be asked to pay on delivery, said once at checkout for the countries whose rules
 * the publisher has checked. Keep the wording careful: it states the rules for printed books, never a promise
 * for what a carrier does.
 */

/**
 * United States. Since 12:01 a.m. ET on 29 August 2025 no parcel enters duty-free under the $800 de minimis
 * exemption, whatever its country or value (Executive Order 14324; CBP, CSMS # 66065494 "Suspension of Duty-Free
 * De Minimis Treatment for All Countries", and the CBP notice in the Federal Register of 2 September 2025,
 * 90 FR 42418). Books are "informational materials" (50 U.S.C. 1702(b)), which that order leaves out, and
 * printed books are free of ordinary duty (HTSUS 4901). Every parcel is now declared to customs, and a carrier
 * may charge for doing it.
 */
const US =
  'Duties and import taxes: printed books enter the United States free of duty as informational materials. Since 29 August 2025 every parcel goes through US customs whatever its value, so the carrier may charge a fee for clearing it.';

/**
 * United Kingdom. On goods up to £135 sent from abroad straight to a buyer, VAT is charged by the seller at the
 * point of sale, not on delivery (HMRC, "Charging VAT on goods sold direct to customers in the UK",
 * gov.uk/guidance/charging-vat-on-goods-sold-direct-to-customers-in-the-uk); printed books are zero-rated
 * (HMRC VAT Notice 701/10, "Zero-rating of books and printed matter") and carry no customs duty.
 */
const GB = 'Duties and import taxes: none on printed books. They are zero-rated for UK VAT, so no VAT is added at checkout or on delivery, and they carry no customs duty.';

const STATEMENTS: Partial<Record<string, string>> = { US, GB };

/** The statement for a destination, or undefined where the shop says nothing. */
export const importChargesStatement = (country: string): string | undefined => STATEMENTS[country.toUpperCase()];
