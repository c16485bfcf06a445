/**
 * Inline scripts in the page's body with content after them, on a page whose stylesheet is a file. An inline
 * script waits for every stylesheet still on its way, so each one stops the parser and makes the browser lay
 * out what it parsed so far, once more, before the rest. With the stylesheet in the page (Astro's
 * `build.inlineStylesheets`), or at the end of the body, they cost nothing of the kind. Each is given as the
 * start of its text.
 */
export function inlineScriptsWaitingForStylesheet(html: string): string[] {
  const body = html.search(/<body[\s>]/i);
  const end = html.lastIndexOf('</body>');
  if (body < 0 || end < 0 || !/<link\b[^>]*\brel="?stylesheet/i.test(html)) return [];
  const scriptsAtEnd = /(?:\s*<script\b[^>]*>(?:(?!<\/script>)[\s\S])*<\/script>)*\s*$/;
  const content = html.slice(body, end).replace(scriptsAtEnd, '');
  return [...content.matchAll(/<script>((?:(?!<\/script>)[\s\S]){0,60})/g)].map((match) => match[1]!);
}

/** Astro's island rule, which Astro writes before a page's first island (in the body) and has no setting to move. */
export const ASTRO_ISLAND_RULE = 'astro-island,astro-slot,astro-static-slot{display:contents}';
