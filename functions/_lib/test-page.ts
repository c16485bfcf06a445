/** The local TEST pages (payment, invoice, shipping platform, sign-in): plain HTML, never cached, never indexed. */
import { z } from 'zod';
import { escapeHtml } from '../../src/lib/html';

/** The id a stand-in gave (a payment page's session, an invoice), as its page's address carries it. */
export const standInId = (prefix: string) =>
  z
    .string()
    .startsWith(prefix)
    .max(100)
    .regex(/^[A-Za-z0-9_-]+$/);

/** A whole page: the title escaped, the style sheet and the main element's HTML as given. */
export function testPage(title: string, css: string, main: string, status = 200): Response {
  return new Response(
    `<!doctype html><html lang="en-AU"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title>
<style>${css}</style></head><body><main>${main}</main></body></html>`,
    { status, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' } },
  );
}
