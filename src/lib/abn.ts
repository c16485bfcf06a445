/**
 * Australian Business Numbers: eleven digits whose check is the ATO's — subtract 1 from the first digit, weight the
 * digits 10, 1, 3, 5, 7, …, 19, and the sum divides by 89. Written as the ATO writes it: 51 824 753 556.
 */
const WEIGHTS = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19] as const;

/** The digits of an ABN typed with spaces (or none); null when it is not eleven digits. */
function abnDigits(value: string): string | null {
  const digits = value.replace(/\s+/g, '');
  return /^\d{11}$/.test(digits) ? digits : null;
}

/** True when the value is eleven digits whose check digits are right. */
export function isValidAbn(value: string): boolean {
  const digits = abnDigits(value);
  if (!digits || digits[0] === '0') return false;
  const sum = [...digits].reduce((total, digit, i) => total + (Number(digit) - (i === 0 ? 1 : 0)) * WEIGHTS[i]!, 0);
  return sum % 89 === 0;
}

/** "51824753556" → "51 824 753 556"; anything else as it is. */
export function formatAbn(value: string): string {
  const digits = abnDigits(value);
  return digits ? `${digits.slice(0, 2)} ${digits.slice(2, 5)} ${digits.slice(5, 8)} ${digits.slice(8)}` : value;
}
