/**
 * The newsletter as its readers get it, from the publisher's Markdown: an HTML email in the site's colours and a
 * plain-text twin, each ending with the one-click unsubscribe link. The back office's preview and the sender use
 * this same function, so the preview is the email.
 *
 * Safe by construction: raw HTML in the Markdown is shown as text, never passed through; links and images keep
 * only http(s) addresses (links also mailto:), anything else (javascript:, data:) becomes plain text. A site path
 * (`[See the book](/book)`, as the publisher writes links everywhere else) is made absolute against the shop's
 * origin: an email has no page to be relative to.
 */
import { Marked, type Token, type Tokens } from 'marked';
import { escapeHtml } from '@/lib/html';
import { NEWSLETTER } from '../../config/constants';
import { SITE } from '../../config/site';

export interface NewsletterContent {
  subject: string;
  /** The shop's origin (https://shop.example): the heading links to it, and site paths resolve against it. */
  siteOrigin: string;
  markdown: string;
  /** The recipient's own unsubscribe page (signed token included). */
  unsubscribeUrl: string;
  /** Why the reader gets it: a newsletter, or the one email about a book they waited for. */
  list?: 'newsletter' | 'availability';
  /** The sender's postal address, printed at the foot. */
  postalAddress: string;
}

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

/**
 * The address a link or image may go to (by `protocol`), a site path (one slash, not two) made absolute against the
 * shop's origin; undefined when it is shown as plain text.
 */
function target(protocol: RegExp, href: string, siteOrigin: string | undefined): string | undefined {
  const trimmed = href.trim();
  const address = siteOrigin && /^\/(?!\/)/.test(trimmed) ? new URL(trimmed, siteOrigin).href : trimmed;
  return protocol.test(address) ? address : undefined;
}

function htmlMarkdown(siteOrigin: string | undefined): Marked {
  return new Marked({
    gfm: true,
    // A line break typed in the newsletter (a signature, an address) is kept, as the publisher sees it while writing.
    breaks: true,
    renderer: {
      // Raw HTML, block or inline, is shown as the text it is.
      html(token: Tokens.HTML | Tokens.Tag) {
        return escapeHtml(token.text);
      },
      link(this: { parser: { parseInline: (tokens: Tokens.Generic[]) => string } }, token: Tokens.Link) {
        const text = this.parser.parseInline(token.tokens);
        const href = target(LINK_PROTOCOL, token.href, siteOrigin);
        if (!href) return text;
        return `<a href="${escapeHtml(href)}"${token.title ? ` title="${escapeHtml(token.title)}"` : ''}>${text}</a>`;
      },
      image(token: Tokens.Image) {
        const src = target(IMAGE_PROTOCOL, token.href, siteOrigin);
        if (!src) return escapeHtml(token.text);
        return `<img src="${escapeHtml(src)}" alt="${escapeHtml(token.text)}"${token.title ? ` title="${escapeHtml(token.title)}"` : ''}>`;
      },
    },
  });
}

/** The Markdown as HTML with the newsletter's inline styles (every tag in it is one Marked wrote). */
export function markdownToHtml(source: string, siteOrigin?: string): string {
  const html = htmlMarkdown(siteOrigin).parse(source, { async: false });
  return html.replace(STYLED_TAG, (_, tag: string) => `<${tag} style="${STYLES[tag]}"`);
}

const lexer = new Marked({ gfm: true });

/** Inline Markdown as a person reads it: no asterisks or brackets, a link as "text (address)". */
function inlineText(tokens: readonly Token[] | undefined, siteOrigin: string | undefined): string {
  return (tokens ?? [])
    .map((token): string => {
      switch (token.type) {
        case 'text':
          return 'tokens' in token && token.tokens ? inlineText(token.tokens, siteOrigin) : token.text;
        case 'strong':
        case 'em':
        case 'del':
          return inlineText(token.tokens, siteOrigin);
        case 'codespan':
        case 'escape':
        case 'html':
          return token.text;
        case 'br':
          return '\n';
        case 'link': {
          const text = inlineText(token.tokens, siteOrigin);
          const href = target(LINK_PROTOCOL, token.href, siteOrigin);
          if (!href) return text;
          const bare = href.replace(/^mailto:/i, '');
          return text === href || text === bare || text === token.href.trim() ? bare : `${text} (${bare})`;
        }
        case 'image': {
          const src = target(IMAGE_PROTOCOL, token.href, siteOrigin);
          return src ? `${token.text} (${src})` : token.text;
        }
        default:
          return token.raw;
      }
    })
    .join('');
}

/** Block Markdown as plain text: paragraphs apart, line breaks kept (a signature stays on its lines), lists with "-". */
function blocksText(tokens: readonly Token[], siteOrigin: string | undefined): string {
  const blocks: string[] = [];
  for (const token of tokens) {
    switch (token.type) {
      case 'space':
        break;
      case 'paragraph':
      case 'heading':
        blocks.push(inlineText(token.tokens, siteOrigin));
        break;
      case 'text':
        blocks.push('tokens' in token && token.tokens ? inlineText(token.tokens, siteOrigin) : token.text);
        break;
      case 'list': {
        const list = token as Tokens.List;
        const start = typeof list.start === 'number' ? list.start : 1;
        blocks.push(
          list.items
            .map((item, i) => {
              const marker = list.ordered ? `${start + i}. ` : '- ';
              return marker + blocksText(item.tokens, siteOrigin).replace(/\n/g, `\n${' '.repeat(marker.length)}`);
            })
            .join('\n'),
        );
        break;
      }
      case 'blockquote':
        blocks.push(
          blocksText((token as Tokens.Blockquote).tokens, siteOrigin)
            .split('\n')
            .map((line) => (line ? `> ${line}` : '>'))
            .join('\n'),
        );
        break;
      case 'code':
      case 'html':
        blocks.push(token.text.replace(/\n+$/, ''));
        break;
      case 'hr':
        blocks.push('---');
        break;
      case 'table': {
        const table = token as Tokens.Table;
        const row = (cells: Tokens.TableCell[]) => cells.map((cell) => inlineText(cell.tokens, siteOrigin)).join(' | ');
        blocks.push([row(table.header), ...table.rows.map(row)].join('\n'));
        break;
      }
      default:
        blocks.push(token.raw.trim());
    }
  }
  return blocks.filter((block) => block.trim() !== '').join('\n\n');
}

/** The Markdown as the plain-text part reads it. */
export function markdownToText(source: string, siteOrigin?: string): string {
  return blocksText(lexer.lexer(source), siteOrigin).trim();
}

const WHY = {
  newsletter: `You are getting this email because you subscribed to the ${SITE.name} newsletter on our website and confirmed it.`,
  availability: `You are getting this email because you asked us on our website to tell you when this book was available, and confirmed it.`,
} as const;

const footerText = (unsubscribeUrl: string, list: keyof typeof WHY = 'newsletter') => `${WHY[list]} To stop getting our emails, unsubscribe with one click: ${unsubscribeUrl}`;

/** The whole email: HTML and plain text. */
export function renderNewsletter({ subject, siteOrigin, markdown: source, unsubscribeUrl, list = 'newsletter', postalAddress }: NewsletterContent): { html: string; text: string } {
  const url = escapeHtml(unsubscribeUrl);
  const home = new URL('/', siteOrigin).href;
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:0;background:${cream};">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:${cream};">
<tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:600px;background:#ffffff;border-radius:16px;border:1px solid #e2e8f0;">
<tr><td style="background:${navy};color:#ffffff;padding:20px 28px;border-radius:16px 16px 0 0;font-family:${FONT};font-size:20px;font-weight:bold;"><a href="${escapeHtml(home)}" style="color:#ffffff;text-decoration:none;">${escapeHtml(SITE.name)}</a></td></tr>
<tr><td style="padding:28px;font-family:${FONT};font-size:16px;line-height:1.6;color:#1f2937;">
${markdownToHtml(source, siteOrigin)}
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
  const text = [`${SITE.name} (${home})`, '', markdownToText(source, siteOrigin), '', '--', footerText(unsubscribeUrl, list), `${SITE.publisher}, ${postalAddress}`].join('\n');
  return { html, text };
}
