/** The build's finish of each page (src/lib/hydration/integration.ts): the island rule out of <body>, the islands' runtime at its end. */
import { describe, expect, it } from 'vitest';
import { ASTRO_ISLAND_STYLE, finishPage, islandRuntimeLast } from '@/lib/hydration/integration';

const DIRECTIVE = '<script>(()=>{var y=1;(self.Astro||(self.Astro={})).intent=y;window.dispatchEvent(new Event("astro:intent"));})();</script>';
const RUNTIME = '<script>(()=>{class f extends HTMLElement{};customElements.get("astro-island")||customElements.define("astro-island",f)})();</script>';
const GATE = '<script>try{document.documentElement.dataset.x=""}catch(e){}</script>';
const MODULE = '<script type="module" src="/_astro/a.js"></script>';
const LD = '<script type="application/ld+json">{"a":"self.Astro"}</script>';

const page = (head: string, body: string) => `<!DOCTYPE html><html><head>${head}</head><body>${body}</body></html>`;

describe("the islands' runtime at the end of <body>", () => {
  it('moves the directive and the element definition, in their order, behind everything else; no island then waits for its children', () => {
    const html = page(GATE, `<p>a</p>${DIRECTIVE}${RUNTIME}<astro-island ssr client="intent" await-children><button>Add</button></astro-island>${MODULE}<footer>f</footer>`);
    expect(islandRuntimeLast(html)).toBe(page(GATE, `<p>a</p><astro-island ssr client="intent"><button>Add</button></astro-island>${MODULE}<footer>f</footer>${DIRECTIVE}${RUNTIME}`));
  });

  it('leaves every other script where it is, and a page without islands as it was', () => {
    const html = page(`${GATE}${LD}`, `<p>a</p>${MODULE}<footer>f</footer>`);
    expect(islandRuntimeLast(html)).toBe(html);
  });

  it('moves directives that come later in the page too (a second kind of island)', () => {
    const load = DIRECTIVE.replaceAll('intent', 'load');
    const html = page('', `${DIRECTIVE}${RUNTIME}<astro-island></astro-island><p>b</p>${load}<astro-island></astro-island>`);
    expect(islandRuntimeLast(html)).toBe(page('', `<astro-island></astro-island><p>b</p><astro-island></astro-island>${DIRECTIVE}${RUNTIME}${load}`));
  });

  it('takes the island rule out of <body> as well', () => {
    const html = page('', `${ASTRO_ISLAND_STYLE}${DIRECTIVE}<astro-island></astro-island>`);
    expect(finishPage(html)).toBe(page('', `<astro-island></astro-island>${DIRECTIVE}`));
  });
});
