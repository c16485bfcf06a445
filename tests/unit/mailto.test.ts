/** Every mailto: link the back office builds from stored data is encoded: an address cannot add headers. */
import { describe, expect, it } from 'vitest';
import { mailtoHref } from '@/lib/mailto';

/** What a mail client reads from the link: the recipients and every header field. */
function parseMailto(href: string) {
  const url = new URL(href);
  expect(url.protocol).toBe('mailto:');
  return { to: decodeURIComponent(url.pathname), headers: Object.fromEntries(url.searchParams) };
}

describe('mailtoHref', () => {
  it('an address carrying ?bcc= stays one recipient and adds no header', () => {
    const href = mailtoHref('a@x.co?bcc=spy@evil.example&subject=Pay again');
    expect(href).toBe('mailto:a%40x.co%3Fbcc%3Dspy%40evil.example%26subject%3DPay%20again');
    expect(parseMailto(href)).toEqual({ to: 'a@x.co?bcc=spy@evil.example&subject=Pay again', headers: {} });
  });

  it('a subject carrying &bcc= or a line break stays the subject', () => {
    const href = mailtoHref('maria@example.com.au', { subject: 'Re: Parish order&bcc=spy@evil.example\r\nCc: x@evil.example' });
    expect(parseMailto(href)).toEqual({ to: 'maria@example.com.au', headers: { subject: 'Re: Parish order&bcc=spy@evil.example\r\nCc: x@evil.example' } });
  });

  it('encodes the subject and body; leaves out what is not given', () => {
    expect(mailtoHref('jane@example.com')).toBe('mailto:jane%40example.com');
    expect(mailtoHref("o'brien@example.com.au", { subject: 'Re: 10% off?', body: 'Hello,\nThanks' })).toBe("mailto:o'brien%40example.com.au?subject=Re%3A%2010%25%20off%3F&body=Hello%2C%0AThanks");
    expect(mailtoHref('jane@example.com', { subject: '' })).toBe('mailto:jane%40example.com');
  });
});
