/** Registers `client:intent` (intent.ts) with Astro. */
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';

export function intentHydration(): AstroIntegration {
  return {
    name: 'intent-hydration',
    hooks: {
      'astro:config:setup': ({ addClientDirective }) => {
        addClientDirective({ name: 'intent', entrypoint: fileURLToPath(new URL('./intent.ts', import.meta.url)) });
      },
    },
  };
}

declare module 'astro' {
  interface AstroClientDirectives {
    /** Hydrate on the visitor's intent towards what needs React, or when the page asks (signals.ts). */
    'client:intent'?: boolean;
  }
}
