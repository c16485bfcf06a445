/**
 * Cleaning free text before it is stored. What a visitor types ends up in emails, the back office, packing
 * slips and CSV files, so a name must not carry a line break (a forged second line in an email, a header),
 * a bidi override (text that reads differently from what it is) or a NUL (Postgres text cannot hold it).
 * Plain code, so the back-office forms can use it too; the servers' zod schemas use it through
 * `src/lib/schemas.ts`.
 */

/** Line breaks and tabs: read as a space in a one-line value. Includes NEL, and U+2028/U+2029. */
const BREAKS = /[\t\n\v\f\r\u0085\u2028\u2029]/g;
/** Every other C0 and C1 control character, and DEL. */
const CONTROLS = /[\u0000-\u0008\u000e-\u001f\u007f-\u0084\u0086-\u009f]/g;
/** Bidirectional marks, embeddings, overrides and isolates. */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** A one-line value (a name, an address line, a subject): breaks become spaces, runs of spaces one, trimmed. */
export function toSingleLine(value: string): string {
  return value.replace(CONTROLS, '').replace(BIDI, '').replace(BREAKS, ' ').replace(/\s+/g, ' ').trim();
}

/** A multi-line value (a message): line breaks kept as `\n` and tabs kept; other control characters dropped. */
export function toMultiLine(value: string): string {
  return value
    .replace(/\r\n?|[\v\f\u0085\u2028\u2029]/g, '\n')
    .replace(CONTROLS, '')
    .replace(BIDI, '')
    .trim();
}
