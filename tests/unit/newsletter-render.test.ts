/** The newsletter's email from Markdown: safe (no raw HTML, no script links), styled inline, in the site's colours. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NEWSLETTER } from '@/config/constants';
import { markdownToHtml, markdownToText, type NewsletterContent, renderNewsletter } from '@/features/newsletter/render';
import { parseRefundAmount } from '@/features/staff-actions/refund';

/** The newsletter as shop.example renders it, with `fields` in place of the plain defaults. */
const render = (fields: Partial<NewsletterContent>) =>
  renderNewsletter({ subject: 'News', siteOrigin: 'https://shop.example', markdown: 'Hello', unsubscribeUrl: 'https://shop.example/u', postalAddress: 'PO Box 1', ...fields });

describe('the newsletter email', () => {
  it('renders Markdown with inline styles', () => {
    const html = markdownToHtml('## News\n\nHello **all** and *you*.\n\n- one\n- two\n\n> quoted');
    expect(html).toMatch(/<h2 style="[^"]+">News<\/h2>/);
    expect(html).toContain('<strong>all</strong>');
    expect(html).toMatch(/<ul style="[^"]+">\s*<li style="[^"]+">one<\/li>/);
    expect(html).toMatch(/<blockquote style="[^"]+">/);
  });

  it('shows raw HTML as text and keeps only http(s) and mailto links and http(s) images', () => {
    const html = markdownToHtml(
      '<img src=x onerror=alert(1)>\n\nHi <b onclick="x()">there</b>\n\n[a](javascript:alert(1)) [b](data:text/html,x) [c](https://example.com/"onmouseover=") [d](mailto:hello@example.com) ![e](javascript:x) ![f](https://example.com/f.png)',
    );
    expect(html).not.toMatch(/<(img src=x|b )/);
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('&lt;b onclick=&quot;x()&quot;&gt;');
    expect(html).not.toMatch(/href="(javascript|data):/);
    expect(html).not.toContain('src="javascript');
    expect(html).toContain('href="https://example.com/&quot;onmouseover=&quot;"');
    expect(html).toContain('href="mailto:hello@example.com"');
    expect(html).toMatch(/<img style="[^"]+" src="https:\/\/example.com\/f.png" alt="f">/);
  });

  it('wraps it in the shop’s name and colours, with the unsubscribe link in the HTML and the text', () => {
    const { html, text } = render({ subject: 'Spring <news>', unsubscribeUrl: 'https://shop.example/newsletter/unsubscribe#tok', postalAddress: 'PO Box 1, Sydney NSW 2001' });
    expect(html).toContain('<title>Spring &lt;news&gt;</title>');
    expect(html).toContain('Awesome Catholic Kids');
    expect(html).toContain(`background:${NEWSLETTER.colors.navy}`);
    expect(html).toContain('href="https://shop.example/newsletter/unsubscribe#tok"');
    expect(text).toBe(
      'Awesome Catholic Kids (https://shop.example/)\n\nHello\n\n--\nYou are getting this email because you subscribed to the Awesome Catholic Kids newsletter on our website and confirmed it. To stop getting our emails, unsubscribe with one click: https://shop.example/newsletter/unsubscribe#tok\nAwesome Catholic Kids Publishing, PO Box 1, Sydney NSW 2001',
    );
    expect(html).toContain('Awesome Catholic Kids Publishing, PO Box 1, Sydney NSW 2001');
  });

  it('an availability email says why it came', () => {
    const { text } = render({ subject: 'Back', list: 'availability' });
    expect(text).toContain('you asked us on our website to tell you when this book was available, and confirmed it.');
  });

  it('links its heading to the shop, and makes site paths absolute to the shop in both parts', () => {
    const { html, text } = render({ markdown: '[See the book](/book) and ![the cover](/images/cover.png), not [this](//evil.example/x).' });
    expect(html).toMatch(/<a href="https:\/\/shop\.example\/" style="[^"]+">Awesome Catholic Kids<\/a>/);
    expect(html).toMatch(/<a style="[^"]+" href="https:\/\/shop\.example\/book">See the book<\/a>/);
    expect(html).toContain('src="https://shop.example/images/cover.png"');
    expect(html).not.toContain('evil.example');
    expect(text).toContain('See the book (https://shop.example/book) and the cover (https://shop.example/images/cover.png), not this.');
  });

  it('has a plain-text part a person can read: no Markdown marks, links as "text (address)", the signature on its own lines', () => {
    const text = markdownToText(
      '## Spring news\n\nHello **friends**, our *new* book is [here](https://shop.example/book)! Write to [us](mailto:hi@shop.example) or see https://shop.example.\n\n- one\n- two with [a link](/store)\n\n1. first\n2. second\n\n> a quote\n\nWarm wishes,\nAnna\nAwesome Catholic Kids',
      'https://shop.example',
    );
    expect(text).toBe(
      [
        'Spring news',
        '',
        'Hello friends, our new book is here (https://shop.example/book)! Write to us (hi@shop.example) or see https://shop.example.',
        '',
        '- one\n- two with a link (https://shop.example/store)',
        '',
        '1. first\n2. second',
        '',
        '> a quote',
        '',
        'Warm wishes,\nAnna\nAwesome Catholic Kids',
      ].join('\n'),
    );
  });

  it('uses the site theme’s colours', () => {
    const css = readFileSync('src/styles/global.css', 'utf8');
    for (const [name, value] of Object.entries(NEWSLETTER.colors)) expect(css).toContain(`--color-${name}: ${value};`);
  });
});

describe('a part refund’s amount', () => {
  it.each([
    ['12.50', 1250],
    ['12.5', 1250],
    ['$12', 1200],
    ['A$ 0.01', 1],
    [' 7 ', 700],
  ])('%s is %i cents', (typed, cents) => expect(parseRefundAmount(typed)).toEqual({ cents }));

  it.each(['', '0', '0.00', '12.505', '-5', '1,000', 'ten', '99999999'])('%s is refused with a reason', (typed) => expect(parseRefundAmount(typed)).toHaveProperty('error'));

  it('keeps a line break typed in the text, as in a signature', () => {
    expect(markdownToHtml('God bless,\nAnna')).toMatch(/God bless,<br>\s*Anna/);
  });
});
