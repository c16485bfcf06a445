/**
 * zod as the site's code imports it, with its compiled fast path off. Building an object schema otherwise probes
 * `new Function` once, and the pages' Content-Security-Policy refuses that (and reports it) on every page with a
 * form. Biome refuses `zod` anywhere else in src/, so this runs before any schema is built.
 */
// biome-ignore lint/style/noRestrictedImports: the one module that sets zod up for src/.
import { z } from 'zod';

z.config({ jitless: true });

export { z };
