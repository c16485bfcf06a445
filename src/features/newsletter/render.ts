/**
 * The newsletter as its readers get it, from the publisher's Markdown: an HTML email in the site's colours and a
 * plain-text twin, each ending with the one-click unsubscribe link. The back office's preview and the sender use
 * this same function, so the preview is the email.
 *
 * Safe by construction: raw HTML in the Markdown is shown as text, never passed through; links and images keep
 * only http(s) addresses (links also mailto:), anything else (javascript:, data:) becomes plain text.
 */
import { Marked, type Tokens } from 'marked';
import { NEWSLETTER } from '../../config/constants';
import { SITE } from '../../config/site';

export interface NewsletterContent {
  subject: string;
  markdown: string;
  /** The recipient's own unsubscribe page (signed token included). */
  unsubscribeUrl: string;
  /** Why the reader gets it: a newsletter, or the one email about a book they waited for. */
  list?: 'newsletter' | 'availability';
  /** The sender's postal address, printed at the foot. */
  postalAddress: string;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

const LINK_PROTOCOL = /^(https?:|mailto:)/i;
const IMAGE_PROTOCOL = /^https?:/i;

const { navy, cream, gold } = NEWSLETTER.colors;
const FONT = "Arial, 'Helvetica Neue', Helvetica, sans-serif";
/** Inline styles per element: many mail programs drop <style> blocks. */
const STYLES: Record<string, string> = {
  p: 'margin:0 0 16px;',
  h1: `margin:24px 0 12px;font-size:26px;line-height:1.25;color:${navy};`,
  h2: `margin:24px 0 12px;font-size:22px;line-height:1.3;color:${navy};`,
  h3: `margin:20px 0 8px;font-size:18px;line-height:1.3;color:${navy};`,
  h4: `margin:16px 0 8px;font-size:16px;color:${navy};`,
  ul: 'margin:0 0 16px;padding-left:24px;',
  ol: 'margin:0 0 16px;padding-left:24px;',
  li: 'margin:0 0 6px;',
  blockquote: `margin:0 0 16px;padding:4px 16px;border-left:4px solid ${gold};color:#334155;`,
  pre: 'margin:0 0 16px;padding:12px;background:#f1f5f9;border-radius:8px;overflow:auto;white-space:pre-wrap;',
  code: "font-family:Menlo,Consolas,'Courier New',monospace;font-size:14px;",
  hr: `border:0;border-top:2px solid ${cream};margin:24px 0;`,
  a: `color:${navy};text-decoration:underline;font-weight:bold;`,
  img: 'max-width:100%;height:auto;border:0;border-radius:8px;',
  table: 'border-collapse:collapse;margin:0 0 16px;',
  th: 'border:1px solid #cbd5e1;padding:6px 10px;text-align:left;',
  td: 'border:1px solid #cbd5e1;padding:6px 10px;',
};
const STYLED_TAG = new RegExp(`<(${Object.keys(STYLES).join('|')})(?=[\\s>/])`, 'g');

const markdown = new Marked({
  gfm: true,
  renderer: {
    // Raw HTML, block or inline, is shown as the text it is.
    html(token: Tokens.HTML | Tokens.Tag) {
      return escapeHtml(token.text);
    },
    link(this: { parser: { parseInline: (tokens: Tokens.Generic[]) => string } }, token: Tokens.Link) {
      const text = this.parser.parseInline(token.tokens);
      if (!LINK_PROTOCOL.test(token.href.trim())) return text;
      return `<a href="${escapeHtml(token.href.trim())}"${token.title ? ` title="${escapeHtml(token.title)}"` : ''}>${text}</a>`;
    },
    image(token: Tokens.Image) {
      if (!IMAGE_PROTOCOL.test(token.href.trim())) return escapeHtml(token.text);
      return `<img src="${escapeHtml(token.href.trim())}" alt="${escapeHtml(token.text)}"${token.title ? ` title="${escapeHtml(token.title)}"` : ''}>`;
    },
  },
});

/** The Markdown as HTML with the newsletter's inline styles (every tag in it is one Marked wrote). */
export function markdownToHtml(source: string): string {
  const html = markdown.parse(source, { async: false });
  return html.replace(STYLED_TAG, (_, tag: string) => `<${tag} style="${STYLES[tag]}"`);
}

const WHY = {
  newsletter: `You are getting this email because you subscribed to the ${SITE.name} newsletter on our website and confirmed it.`,
  availability: `You are getting this email because you asked us on our website to tell you when this book was available, and confirmed it.`,
} as const;

export const footerText = (unsubscribeUrl: string, list: keyof typeof WHY = 'newsletter') => `${WHY[list]} To stop getting our emails, unsubscribe with one click: ${unsubscribeUrl}`;

/** The whole email: HTML and plain text. */
export function renderNewsletter({ subject, markdown: source, unsubscribeUrl, list = 'newsletter', postalAddress }: NewsletterContent): { html: string; text: string } {
  const url = escapeHtml(unsubscribeUrl);
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:0;background:${cream};">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:${cream};">
<tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:600px;background:#ffffff;border-radius:16px;border:1px solid #e2e8f0;">
<tr><td style="background:${navy};color:#ffffff;padding:20px 28px;border-radius:16px 16px 0 0;font-family:${FONT};font-size:20px;font-weight:bold;">${escapeHtml(SITE.name)}</td></tr>
<tr><td style="padding:28px;font-family:${FONT};font-size:16px;line-height:1.6;color:#1f2937;">
${markdownToHtml(source)}
</td></tr>
<tr><td style="padding:20px 28px;border-top:4px solid ${gold};font-family:${FONT};font-size:13px;line-height:1.5;color:#475569;">
${escapeHtml(WHY[list])}
<a href="${url}" style="${STYLES.a}">Unsubscribe</a> with one click.<br>
${escapeHtml(SITE.publisher)}, ${escapeHtml(postalAddress)}
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>`;
  const text = [source.trim(), '', '--', footerText(unsubscribeUrl, list), `${SITE.publisher}, ${postalAddress}`].join('\n');
  return { html, text };
}
