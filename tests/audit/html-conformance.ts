/**
 * What the W3C HTML checker would report on the built pages that a build can get wrong without noticing:
 * a `style` element inside `<body>` ("Element style not allowed as child of element body in this context").
 * SVG's own `<style>` (foreign content) is allowed and skipped.
 */

/** The `style` elements in the page's body, each as a short excerpt of what precedes it. */
export function stylesInBody(html: string): string[] {
  const body = html.search(/<body[\s>]/i);
  if (body < 0) return [];
  const found: string[] = [];
  let svgDepth = 0;
  const tags = /<(\/?)(svg|style)\b[^>]*>/gi;
  tags.lastIndex = body;
  for (let match = tags.exec(html); match; match = tags.exec(html)) {
    const [, closing, name] = match;
    if (name!.toLowerCase() === 'svg') {
      svgDepth = Math.max(0, svgDepth + (closing ? -1 : 1));
      continue;
    }
    if (closing || svgDepth > 0) continue;
    found.push(html.slice(Math.max(body, match.index - 80), match.index + 60).replace(/\s+/g, ' '));
    // Skip the rule's text, which may itself contain "<".
    const end = html.indexOf('</style>', tags.lastIndex);
    if (end > 0) tags.lastIndex = end + '</style>'.length;
  }
  return found;
}

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
