/** zod/mini as the site's code imports it: after `./zod` has turned the compiled fast path off for both. */
import './zod';

// biome-ignore lint/style/noRestrictedImports: the one module that sets zod up for src/.
export * from 'zod/mini';
