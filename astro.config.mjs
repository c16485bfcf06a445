// @ts-check
import { defineConfig, envField } from 'astro/config';
import react from '@astrojs/react';
import mdx from '@astrojs/mdx';
import sitemap from '@astrojs/sitemap';
import tailwindcss from '@tailwindcss/vite';
import { ENV_VARS } from './src/config/env.ts';
import { isKeptOutOfSearch } from './src/config/search.ts';
import { contentDates } from './src/features/content/content-dates.ts';
import { socialCards } from './src/features/social-card/integration.ts';
import { intentHydration } from './src/lib/hydration/integration.ts';
import { pageChunkName } from './src/lib/hydration/page-chunk.ts';
import { reactNamedImports } from './src/lib/hydration/react-imports.ts';
import { securityHeaders } from './src/lib/security-headers.ts';
import { sampleContentCheck } from './src/features/content/sample-content.ts';
import { siteUrl } from './src/config/site-url.ts';

/** Netlify sets URL on every build; SITE_URL overrides it; locally the site is served on PORT (4321 by default). */
const site = siteUrl(process.env);

/** `lastmod` for each sitemap entry: the date its page's content last changed. */
const lastModified = contentDates(process.cwd());

const clientEnv = Object.fromEntries(
  Object.entries(ENV_VARS)
    .filter(([, v]) => v.context === 'client')
    .map(([name]) => [name, envField.string({ context: 'client', access: 'public', optional: true })]),
);

/** A production deploy must take real payments: without Stripe keys the build stops here. */
const refuseTestPaymentsInProduction = {
  name: 'refuse-test-payments-in-production',
  hooks: {
    'astro:config:setup': () => {
      if (process.env.CONTEXT === 'production' && !process.env.STRIPE_SECRET_KEY) {
        throw new Error('Refusing to build a production deploy without STRIPE_SECRET_KEY: the local test-payment page must never run in production.');
      }
    },
  },
};

export default defineConfig({
  site,
  // A build pointed at another folder of book files (CATALOG_DIR, the tests' fixture catalog) keeps its own
  // content cache: the glob loader would otherwise reuse the other folder's entries for unchanged files.
  ...(process.env.CATALOG_DIR && { cacheDir: './node_modules/.astro-catalog-dir' }),
  output: 'static',
  trailingSlash: 'never',
  // The stylesheet in each page's <head>, not a file: an inline script (Astro's island runtime, written just before
  // a page's first island) waits for every stylesheet still on its way, so with a file the parser stopped there
  // and the browser laid out the page once per part parsed in between; inline, a page is parsed in one go.
  build: { format: 'file', inlineStylesheets: 'always' },
  integrations: [
    refuseTestPaymentsInProduction,
    // Lists the content still marked sample: true; a production build stops until it is replaced or confirmed.
    sampleContentCheck(),
    react(),
    intentHydration(),
    mdx(),
    sitemap({
      filter: (page) => !isKeptOutOfSearch(new URL(page).pathname),
      serialize: (item) => {
        const date = lastModified.get(new URL(item.url).pathname.replace(/(.)\/$/, '$1'));
        return date ? { ...item, lastmod: date } : item;
      },
    }),
    socialCards(),
    // Last: it reads the pages the build wrote.
    securityHeaders(),
  ],
  env: { schema: clientEnv },
  // Scripts stay external files so the CSP can allow them by origin instead of by hash.
  vite: {
    // reactNamedImports: a form library's `import React` would otherwise cost every page's islands (react-imports.ts).
    plugins: [tailwindcss(), reactNamedImports()],
    build: {
      assetsInlineLimit: 0,
      // The modules the pages' scripts share in one file, not a chain of small ones (page-chunk.ts).
      rolldownOptions: { output: { codeSplitting: { groups: [{ name: pageChunkName }] } } },
    },
  },
  devToolbar: { enabled: false },
});
