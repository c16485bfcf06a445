/** zod's classic API as the site's code imports it: after `./zod-mini` has turned the compiled fast path off. */
import './zod-mini';
// biome-ignore lint/style/noRestrictedImports: one of the two modules that set zod up for src/.
import { z } from 'zod';

export { z };
