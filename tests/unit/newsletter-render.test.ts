/** The newsletter's email from Markdown: safe (no raw HTML, no script links), styled inline, in the site's colours. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NEWSLETTER } from '@/config/constants';
import { markdownToHtml, renderNewsletter } from '@/features/newsletter/render';
import { parseRefundAmount } from '@/features/admin/refund';

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
    const { html, text } = renderNewsletter({
      subject: 'Spring <news>',
      markdown: 'Hello',
      unsubscribeUrl: 'https://shop.example/newsletter/unsubscribe#tok',
      postalAddress: 'PO Box 1, Sydney NSW 2001',
    });
    expect(html).toContain('<title>Spring &lt;news&gt;</title>');
    expect(html).toContain('Awesome Catholic Kids');
    expect(html).toContain(`background:${NEWSLETTER.colors.navy}`);
    expect(html).toContain('href="https://shop.example/newsletter/unsubscribe#tok"');
    expect(text).toBe(
      'Hello\n\n--\nYou are getting this email because you subscribed to the Awesome Catholic Kids newsletter on our website and confirmed it. To stop getting our emails, unsubscribe with one click: https://shop.example/newsletter/unsubscribe#tok\nAwesome Catholic Kids Publishing, PO Box 1, Sydney NSW 2001',
    );
    expect(html).toContain('Awesome Catholic Kids Publishing, PO Box 1, Sydney NSW 2001');
  });

  it('an availability email says why it came', () => {
    const { text } = renderNewsletter({ subject: 'Back', markdown: 'Hello', unsubscribeUrl: 'https://shop.example/u', list: 'availability', postalAddress: 'PO Box 1' });
    expect(text).toContain('you asked us on our website to tell you when this book was available, and confirmed it.');
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
});
