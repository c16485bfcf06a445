/**
 * Writing CSV files the publisher opens in a spreadsheet. Cells hold what visitors typed, so a cell that a
 * spreadsheet would read as a formula (starting with `=`, `+`, `-`, `@`, a tab or a carriage return) gets a
 * leading `'`, which makes it text; a cell given as a number (a refund of -47.5, say) is written as it is, since a
 * number holds no formula. Every cell is quoted, so a comma, a quote, a line break or a spreadsheet
 * that splits on `;` cannot start a new cell.
 */

/** The type a CSV file is saved with. */
export const CSV_TYPE = 'text/csv;charset=utf-8';

const FORMULA_START = /^[=+\-@\t\r]/;

/** One cell: neutralised and quoted. A number is written as it is: a negative amount is no formula. */
export function csvCell(value: string | number | null | undefined): string {
  const text = value == null ? '' : String(value);
  const safe = typeof value !== 'number' && FORMULA_START.test(text) ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
}

type Row = ReadonlyArray<string | number | null | undefined>;

/** Rows as lines of a file, CRLF line endings: a file written a page of records at a time. */
export function csvLines(rows: ReadonlyArray<Row>): string {
  return rows.map((row) => `${row.map(csvCell).join(',')}\r\n`).join('');
}

/** A whole file: a header row, then one row per record, CRLF line endings. */
export function toCsv(header: readonly string[], rows: ReadonlyArray<Row>): string {
  return csvLines([header, ...rows]);
}
