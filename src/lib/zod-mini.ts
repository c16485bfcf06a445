/**
 * zod/mini as the site's code imports it, with its compiled fast path off. Building an object schema otherwise
 * probes `new Function` once, and the pages' Content-Security-Policy refuses that (and reports it) on every page
 * with a form. Biome refuses `zod` anywhere else in src/, so this runs before any schema is built. The setting is
 * zod's core's, so it holds for the classic API (`./zod`) too.
 */
// biome-ignore lint/style/noRestrictedImports: one of the two modules that set zod up for src/.
import { config } from 'zod/mini';

config({ jitless: true });

// biome-ignore lint/style/noRestrictedImports: one of the two modules that set zod up for src/.
export * from 'zod/mini';
