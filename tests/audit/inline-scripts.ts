/**
 * Inline scripts in the page's body with content after them. An inline script waits for the stylesheet, so
 * each one stops the parser and makes the browser lay out what it parsed so far, once more, before the rest:
 * at the end of the body, after everything a visitor sees, they cost nothing of the kind. Each is given as
 * the start of its text.
 */
export function inlineScriptsBeforeEnd(html: string): string[] {
  const body = html.search(/<body[\s>]/i);
  const end = html.lastIndexOf('</body>');
  if (body < 0 || end < 0) return [];
  const scriptsAtEnd = /(?:\s*<script\b[^>]*>(?:(?!<\/script>)[\s\S])*<\/script>)*\s*$/;
  const content = html.slice(body, end).replace(scriptsAtEnd, '');
  return [...content.matchAll(/<script>((?:(?!<\/script>)[\s\S]){0,60})/g)].map((match) => match[1]!);
}
