/**
 * One chunk for the code the pages' own scripts share. Astro makes each component's `<script>` an entry of the
 * client build, and the bundler splits the modules they share by which entries use them: the product page
 * fetched 28 files of a few hundred bytes, each found only once the one importing it had arrived, and each
 * carrying the site's response headers (about 1.4 KB, more than most of the files). Every module a page script
 * imports statically, directly or through others, goes in this one chunk; what is imported only on demand
 * (supabase-js, the wishlist, sign-out) and what only React islands use keep the bundler's own chunks.
 *
 * The chunk is the layout's script itself, which every page starts: a page's first script then imports nothing
 * it must wait for, where a script that imported the chunk was one more round trip before the first paint. The
 * other page scripts import it, already on its way.
 */
interface ModuleGraph {
  getModuleInfo(id: string): { importers: readonly string[] } | null;
}

/** An Astro component's processed `<script>`, the entry of a page script. */
const isPageScript = (id: string) => /\.astro\?astro&type=script&/.test(id);

/** The layout's `<script>`, on every page. */
const isLayoutScript = (id: string) => /\/src\/layouts\/BaseLayout\.astro\?astro&type=script&/.test(id);

/** Whether a module is the entry of a page script, or is reached from one by static imports. */
function reachedFromPageScript(id: string, graph: ModuleGraph, seen = new Set<string>()): boolean {
  if (isPageScript(id)) return true;
  if (seen.has(id)) return false;
  seen.add(id);
  return (graph.getModuleInfo(id)?.importers ?? []).some((importer) => reachedFromPageScript(importer, graph, seen));
}

/** The bundler's helpers for CommonJS modules, which the page chunk needs as much as React does. */
const isBundlerRuntime = (id: string) => /rolldown[\\/:]runtime/.test(id);

/**
 * The `name` of the bundler's chunk group: "page" for the layout's script and the pages' scripts' code, else the
 * bundler decides.
 */
export function pageChunkName(id: string, graph: ModuleGraph): string | null {
  if (isBundlerRuntime(id) || isLayoutScript(id)) return 'page';
  return !isPageScript(id) && reachedFromPageScript(id, graph) ? 'page' : null;
}
