/**
 * A `mailto:` link to an address read from the database. Every part is percent-encoded, so an address or
 * subject holding `?`, `&` or `%` can never add a header of its own (`?bcc=…`) or a body to the email.
 */
export function mailtoHref(address: string, fields: { subject?: string; body?: string } = {}): string {
  const query = Object.entries(fields)
    .filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== '')
    .map(([name, value]) => `${name}=${encodeURIComponent(value)}`)
    .join('&');
  return `mailto:${encodeURIComponent(address)}${query ? `?${query}` : ''}`;
}
