/**
 * "Did you mean …?" for an email address whose domain is a common slip of the fingers on a big mail provider's
 * (gmial.com for gmail.com). A small fixed map, never a guess: an address it does not know is left alone.
 */
const TYPOS: Record<string, string> = {
  'gmial.com': 'gmail.com',
  'gmai.com': 'gmail.com',
  'gamil.com': 'gmail.com',
  'gmaill.com': 'gmail.com',
  'gmail.co': 'gmail.com',
  'gmail.con': 'gmail.com',
  'gmail.cm': 'gmail.com',
  'gnail.com': 'gmail.com',
  'hotmial.com': 'hotmail.com',
  'hotmal.com': 'hotmail.com',
  'hotmai.com': 'hotmail.com',
  'hotmail.co': 'hotmail.com',
  'hotmail.con': 'hotmail.com',
  'yaho.com': 'yahoo.com',
  'yahooo.com': 'yahoo.com',
  'yahoo.co': 'yahoo.com',
  'yahoo.con': 'yahoo.com',
  'outlok.com': 'outlook.com',
  'outloo.com': 'outlook.com',
  'outlook.co': 'outlook.com',
  'outlook.con': 'outlook.com',
  'icloud.co': 'icloud.com',
  'icloud.con': 'icloud.com',
  'iclod.com': 'icloud.com',
  'icoud.com': 'icloud.com',
  'bigpond.co': 'bigpond.com',
  'bigpong.com': 'bigpond.com',
};

/** The address with its domain corrected, or null when the domain is not a known slip. */
export function emailSuggestion(email: string): string | null {
  const trimmed = email.trim();
  const at = trimmed.lastIndexOf('@');
  if (at < 1) return null;
  const fix = TYPOS[trimmed.slice(at + 1).toLowerCase()];
  return fix ? `${trimmed.slice(0, at)}@${fix}` : null;
}
